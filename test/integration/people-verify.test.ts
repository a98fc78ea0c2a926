import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir } from '../helpers/appliance';
import { BINARY } from '../helpers/paths';
import { callbackRig } from '../helpers/callback-rig';
import { freePort } from '../helpers/ports';
import { startSipp } from '../helpers/sipp';

/**
 * docs/on-call.md "Verification", through the compiled binary against sipp standing for a
 * person's phones (test/peers/sipp/busy-or-press.xml: the desk number answers 486 Busy Here,
 * the mobile answers and presses 1): `person verify` waits for both calls, prints one line per
 * number and exits 1; the mobile is verified, the desk phone keeps `ok: false`, `busy`, tried
 * once; no credit is used.
 */
const peerRig = callbackRig();
afterEach(() => peerRig.stopAll());

const MOBILE = '5321111111';
const DESK = '5322222222';

/** The CLI without blocking this process (it waits for calls the running appliance places). */
function cliAsync(a: ApplianceDir, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, ['--config', a.configPath, ...args], { cwd: a.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('verification calls, through the binary', () => {
  it('1 pressed verifies the mobile; the busy desk phone is ok false "busy", tried once; exit 1; no credit used', async () => {
    const sipp = peerRig.keepPeer(await startSipp({ scenario: 'busy-or-press.xml', calls: 2, keys: { listen_ms: 300, digit: 1 }, fill: { busy_number: DESK } }));
    const rtp = await freePort();
    const a = applianceDir({
      sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
      // A retry 1 s away would ring the busy phone again within the test: it must not.
      calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 3, repeat: 1, per_number_gap_s: 0 },
      tts: { voice: 'en', speed_wpm: 400 },
    });
    const acc = provision(a);
    a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', MOBILE, '--phone', DESK, '--language', 'en']);
    const before = a.cliJson(['credit', 'show', acc.accountId]);
    await peerRig.start(a);

    const r = await cliAsync(a, ['person', 'verify', acc.accountId, 'ayşe', '--timeout', '60', '--json']);
    expect(r.status).toBe(1);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { number: MOBILE, ok: true, reason: null },
      { number: DESK, ok: false, reason: 'busy' },
    ]);
    expect(r.stderr).toContain('1 of 2 number(s) not verified');

    const person = a.cliJson(['person', 'show', acc.accountId, 'Ayşe']);
    expect(person.phones[0]).toMatchObject({ number: MOBILE, verified_at: expect.any(String), last_check: { ok: true, reason: null } });
    expect(person.phones[1]).toMatchObject({ number: DESK, verified_at: null, last_check: { ok: false, reason: 'busy' } });
    expect(a.cliJson(['credit', 'show', acc.accountId]).used).toBe(before.used);
    // Exactly two calls reached the phones: the busy one was not retried.
    expect(await sipp.exited).toBe(0);

    // A changed number loses its verification; the one kept keeps it.
    const updated = a.cliJson(['person', 'update', acc.accountId, 'Ayşe', '--phone', MOBILE, '--phone', '5323333333']);
    expect(updated.phones).toEqual([
      { number: MOBILE, verified_at: person.phones[0].verified_at, last_check: person.phones[0].last_check },
      { number: '5323333333', verified_at: null, last_check: null },
    ]);
  }, 90_000);
});
