import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_CONCURRENCY, ENGINE_NICE, runProcess } from './run-process';

describe('speech engine processes', () => {
  it('run below the appliance’s priority, so a burst of renders does not take the CPU the intake answers with', async () => {
    // The engine's own nice value, read from /proc by the engine itself once it runs (field 19).
    const out = await runProcess({
      binary: 'sh',
      args: ['-c', 'sleep 0.2; cut -d" " -f19 /proc/$$/stat'],
      stdin: new Uint8Array(),
      timeoutMs: 5000,
      what: 'sh',
    });
    expect(Number(new TextDecoder().decode(out).trim())).toBe(Math.min(19, getPriority() + ENGINE_NICE));
  });

  it('hand a large input to the engine while its output is read (no deadlock on full pipes), byte for byte', async () => {
    const input = Uint8Array.from({ length: 4 << 20 }, (_, i) => (i * 31) & 255);
    const out = await runProcess({ binary: 'cat', args: [], stdin: input, timeoutMs: 10_000, what: 'cat' });
    expect(out.length).toBe(input.length);
    expect(Buffer.compare(Buffer.from(out), Buffer.from(input))).toBe(0);
  });

  it('an engine that exits without reading its input is judged by its exit status, not by the unread input', async () => {
    const input = new Uint8Array(4 << 20);
    expect((await runProcess({ binary: 'true', args: [], stdin: input, timeoutMs: 10_000, what: 'true' })).length).toBe(0);
    await expect(runProcess({ binary: 'sh', args: ['-c', 'echo nope >&2; exit 3'], stdin: input, timeoutMs: 10_000, what: 'sh' })).rejects.toThrow('sh exited with 3: nope');
  });

  it('run ENGINE_CONCURRENCY at a time: a burst waits its turn, and every one still runs', async () => {
    // Each engine notes its start and end (ns) in one file; the most running at any moment is counted from them.
    const log = join(mkdtempSync(join(tmpdir(), 'va-engines-')), 'log');
    const burst = ENGINE_CONCURRENCY * 3;
    const outs = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        runProcess({
          binary: 'sh',
          args: ['-c', `echo "$(date +%s%N) 1" >> ${log}; sleep 0.1; echo "$(date +%s%N) -1" >> ${log}; echo ${i}`],
          stdin: new Uint8Array(),
          timeoutMs: 10_000,
          what: 'sh',
        }),
      ),
    );
    expect(outs.map((o) => Number(new TextDecoder().decode(o)))).toEqual(Array.from({ length: burst }, (_, i) => i));
    const edges = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number) as [number, number]);
    edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // at one instant an end before a start
    let now = 0;
    let most = 0;
    for (const [, d] of edges) most = Math.max(most, (now += d));
    expect(edges).toHaveLength(2 * burst);
    expect(most).toBeLessThanOrEqual(ENGINE_CONCURRENCY); // without the turns: all of them at once
  });
});
