import { afterEach, describe, expect, it } from 'vitest';
import { alertOverHttp } from '../helpers/api-reads';
import { applianceDir, provision } from '../helpers/appliance';
import { callbackRig } from '../helpers/callback-rig';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { startSipp } from '../helpers/sipp';

/**
 * Escalation through the compiled binary against sipp standing for the phones: each number's
 * behaviour (answer and press nothing, press 1, press 3) is chosen by the number dialled.
 */
const peerRig = callbackRig();
afterEach(() => peerRig.stopAll());

/** The account's callback endpoint: every event, and whether its signature verified. */
function receiver(secret: () => string) {
  const r = peerRig.receiver(secret);
  return { url: r.url, events: r.received };
}

const A = '5321111111';
const B = '5322222222';

async function rig(o: { press: string; digit: number; calls: number; steps: string[]; rounds?: number; credit?: number; busy?: boolean }) {
  const sipp = o.busy
    ? await startSipp({ scenario: 'final.xml', calls: o.calls, fill: { code: 486, reason: 'Busy Here' } })
    : await startSipp({ scenario: 'press-for-number.xml', calls: o.calls, keys: { listen_ms: 300, digit: o.digit }, fill: { press_number: o.press, digit: o.digit } });
  peerRig.keepPeer(sipp);
  const rtp = await freePort();
  const a = applianceDir({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 2, repeat: 1, per_number_gap_s: 0 },
    // Nobody here listens to the words: the fastest voice and short pauses make each call that
    // plays to its end ~2.3 s instead of ~4 s (every test waits out one to four of them).
    tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
  });
  const acc = provision(a, 'starter', o.credit ? ['--monthly-credit', String(o.credit)] : []);
  const policy = a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', ...o.steps.flatMap((s) => ['--step', s]), '--rounds', String(o.rounds ?? 1)]);
  const app = await peerRig.start(a);
  const alertOf = (id: string) => alertOverHttp(app, acc, id);
  const raise = () => post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'core switch down', policy: 'oncall' });
  return { a, app, acc, sipp, policy, alertOf, raise };
}

const closed = (alert: any) => alert && alert.state !== 'open';

describe('escalation through the binary', () => {
  it('step 1 answers and presses nothing → step 2 after wait_s; step 2 presses 1 → acknowledged, nobody else called; callbacks in order, signed', async () => {
    const { raise, alertOf, sipp, a, acc } = await rig({ press: B, digit: 1, calls: 2, steps: [`${A}:3`, `${B}:3`] });
    let secret = '';
    const hook = receiver(() => secret);
    secret = a.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]).callback_secret;
    const r = await raise();
    expect(r.status).toBe(200);
    const alertId = r.json.alert_id;
    await expect.poll(async () => closed(await alertOf(alertId)), { timeout: 30_000, interval: 200 }).toBe(true);
    const alert = await alertOf(alertId);
    expect(alert).toMatchObject({ state: 'acknowledged', acknowledged_by: B });
    expect(alert.calls.map((c: any) => [c.phone_number, c.state])).toEqual([
      [A, 'completed'],
      [B, 'acknowledged'],
    ]);
    const [first, second] = alert.calls;
    // Step 2 began once step 1's call ended and its 3 s had passed since step 1 began.
    expect(Date.parse(second.created_at) - Date.parse(first.created_at)).toBeGreaterThanOrEqual(3_000);
    expect(await sipp.exited).toBe(0); // exactly two calls reached the phones
    // The monitoring tool hears the story, in order, each event signed with the account's secret.
    await expect.poll(() => hook.events.map((e) => e.event.type).at(-1), { timeout: 15_000, interval: 100 }).toBe('alert.acknowledged');
    expect(hook.events.map((e) => `${e.event.type}${e.event.call ? ` ${e.event.call.number}` : ''}`)).toEqual([
      `call.answered ${A}`,
      'alert.escalated',
      `call.answered ${B}`,
      `call.acknowledged ${B}`,
      'alert.acknowledged',
    ]);
    expect(hook.events.every((e) => e.signatureValid && e.event.alert.id === alertId)).toBe(true);
    expect(hook.events.find((e) => e.event.type === 'alert.escalated')!.event.escalation).toMatchObject({ round: 1, step: 2, numbers: [B] });
    expect(hook.events.at(-1)!.event.acknowledged_by).toBe(B);
  }, 60_000); // two calls, one after the other, and a 3 s wait: 11 s with the machine to itself, 16 s beside the other wait suites, 19-20 s in CI

  it('busy at step 1 is retried within the step before the escalation moves on', async () => {
    // Every phone is busy: each call is tried twice (calls.max_attempts 2), then the next step.
    const { raise, alertOf, sipp } = await rig({ press: '', digit: 1, calls: 4, steps: [`${A}:1`, `${B}:1`], busy: true });
    const alertId = (await raise()).json.alert_id;
    await expect.poll(async () => closed(await alertOf(alertId)), { timeout: 30_000, interval: 250 }).toBe(true);
    const alert = await alertOf(alertId);
    expect(alert.state).toBe('unacknowledged');
    expect(alert.calls.map((c: any) => [c.phone_number, c.state, c.attempts])).toEqual([
      [A, 'busy', 2],
      [B, 'busy', 2],
    ]);
    // Step 2 was queued only after step 1's call had used its second attempt.
    const [a, b] = alert.calls;
    expect(Date.parse(b.created_at)).toBeGreaterThanOrEqual(Date.parse(a.finished_at));
    expect(await sipp.exited).toBe(0);
  }, 60_000); // four busy calls one after the other with 1 s retries: 10-14 s in CI

  it('keypad 3 at step 1 passes to step 2 at once', async () => {
    const { raise, alertOf } = await rig({ press: A, digit: 3, calls: 2, steps: [`${A}:60`, `${B}:60`] });
    const alertId = (await raise()).json.alert_id;
    // Well within step 1's 60 s wait, so only keypad 3 can have moved it on.
    await expect.poll(async () => (await alertOf(alertId)).calls.length, { timeout: 30_000, interval: 200 }).toBe(2);
    const alert = await alertOf(alertId);
    expect(alert.calls[0]).toMatchObject({ phone_number: A, state: 'completed', last_reason: '200 passed to the next step by keypad 3' });
    expect(Date.parse(alert.calls[1].created_at) - Date.parse(alert.calls[0].created_at)).toBeLessThan(30_000);
  }, 60_000); // 8 s with the machine to itself, 11 s beside the other wait suites, 24 s once in CI

  it('rounds: 2 with nobody pressing → the list twice, then unacknowledged, and its callback', async () => {
    const { raise, alertOf, sipp, a, acc } = await rig({ press: '5329999999', digit: 1, calls: 4, steps: [`${A}:1`, `${B}:1`], rounds: 2 });
    const hook = receiver(() => '');
    a.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]);
    const alertId = (await raise()).json.alert_id;
    await expect.poll(async () => closed(await alertOf(alertId)), { timeout: 40_000, interval: 250 }).toBe(true);
    const alert = await alertOf(alertId);
    expect(alert.state).toBe('unacknowledged');
    expect(alert.calls.map((c: any) => c.phone_number)).toEqual([A, B, A, B]);
    expect(await sipp.exited).toBe(0);
    await expect.poll(() => hook.events.map((e) => e.event.type).at(-1), { timeout: 15_000, interval: 100 }).toBe('alert.unacknowledged');
    expect(hook.events.filter((e) => e.event.type === 'alert.escalated')).toHaveLength(3);
  }, 60_000); // four calls of a few seconds each, one after another: 24-28 s with the machine to itself

  it('credit running out stops the escalation with the reason, and its callback says so', async () => {
    const { raise, alertOf, a, acc } = await rig({ press: '5329999999', digit: 1, calls: 1, steps: [`${A}:1`, `${B}:1`], credit: 1 });
    const hook = receiver(() => '');
    a.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]);
    const alertId = (await raise()).json.alert_id;
    await expect.poll(async () => closed(await alertOf(alertId)), { timeout: 20_000, interval: 250 }).toBe(true);
    expect(await alertOf(alertId)).toMatchObject({ state: 'unacknowledged', state_reason: 'Insufficient call credit' });
    await expect.poll(() => hook.events.find((e) => e.event.type === 'alert.unacknowledged')?.event.alert.state, { timeout: 15_000, interval: 100 }).toBe('unacknowledged');
  });

  it('SIGKILL during step 1\'s wait: after a restart step 2 happens on time, step 1 is not repeated', async () => {
    const { raise, alertOf, app, a, acc } = await rig({ press: B, digit: 1, calls: 2, steps: [`${A}:6`, `${B}:6`] });
    const alertId = (await raise()).json.alert_id;
    await expect.poll(async () => (await alertOf(alertId)).calls[0]?.state, { timeout: 20_000, interval: 200 }).toBe('completed');
    const stepOneAt = Date.parse((await alertOf(alertId)).calls[0].created_at);
    await app.kill();
    const restarted = await peerRig.start(a);
    // Step 2's call ends ~8 s after the restart with the machine to itself; a busy CI machine takes up to 3×.
    await expect.poll(async () => (await alertOverHttp(restarted, acc, alertId)).state, { timeout: 40_000, interval: 250 }).toBe('acknowledged');
    const calls = a.cliJson(['alerts', 'show', alertId]).calls;
    expect(calls.map((c: any) => c.phone_number)).toEqual([A, B]);
    expect(Date.parse(calls[1].created_at) - stepOneAt).toBeGreaterThanOrEqual(6_000);
  }, 60_000); // two calls, a restart and a 6 s wait: 13 s with the machine to itself, 15 s beside the other wait suites, over 30 s once in CI
});
