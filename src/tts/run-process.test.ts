import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ENGINE_NICE, runProcess } from './run-process';

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
});
