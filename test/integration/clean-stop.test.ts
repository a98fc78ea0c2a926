import { afterEach, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { callDesk } from '../helpers/desk-caller';
import { DESK, deskRig } from '../helpers/desk-rig';
import { post } from '../helpers/http';
import { startKamailio, type Peer } from '../helpers/pbx';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * SIGTERM against a PBX that has gone silent (docs/operations.md "Stopping").
 * Production timers (T1 500 ms): every SIP transaction left open would hold the process for 64·T1 =
 * 32 s (RFC 3261 §17.1.1.2 Timer B, §17.1.2.2 Timer F) after "voice-alert stopped". The binary,
 * the signal, and the time until the process is gone.
 */
let running: RunningAppliance[] = [];
let peers: (SippPeer | Peer)[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  for (const p of peers) await p.stop();
  running = [];
  peers = [];
});

/** Well inside systemd's TimeoutStopSec (90 s), far below one 64·T1 (32 s). */
const EXIT_WITHIN_MS = 5000;
/** The peer stays bound and silent past any wait here: no answer, no ICMP. */
const SILENT_MS = 60_000;

async function trunk(sippPort: number, sip: Record<string, unknown> = {}) {
  const rtp = await freePort();
  return {
    sip: { server: `127.0.0.1:${sippPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 500, t2_ms: 4000, ...sip },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 30, retry_delays_s: [1], max_attempts: 2, repeat: 1 },
    tts: { voice: 'en', speed_wpm: 400 },
  };
}

async function waitFor(ok: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, then the exit code and how long the process took to go from the signal. */
async function sigterm(app: RunningAppliance): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  const code = await app.stop();
  return { code, ms: Date.now() - t0 };
}

describe('SIGTERM against a silent PBX exits within the grace', () => {
  it('a registrar that took the REGISTER and never answers the un-REGISTER', async () => {
    // Silent from the un-REGISTER for as long as the stop may take (it came after the signal):
    // the registrar is there and mute until the process is gone, then sipp exits 0.
    const sipp = await startSipp({ scenario: 'register-silent-unregister.xml', fill: { silent_ms: EXIT_WITHIN_MS } });
    peers.push(sipp);
    const a = applianceDir(await trunk(sipp.port, { register: true, username: 'trunk-user' }));
    const app = await a.start();
    running.push(app); // stopped here already unless a step before failed
    await waitFor(() => /sip registered/.test(app.output()), 10_000, 'the registration');
    const { code, ms } = await sigterm(app);
    expect(code).toBe(0);
    expect(app.output()).toMatch(/voice-alert stopped/);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    // The un-REGISTER was sent (sipp checked Contact ;expires=0), not skipped to save time.
    expect(await sipp.exited).toBe(0);
  }, 45_000);

  const inFlight = async (scenario: string, before: (a: ApplianceDir, id: string) => boolean) => {
    const sipp = await startSipp({ scenario, fill: { silent_ms: SILENT_MS } });
    peers.push(sipp);
    const a = applianceDir(await trunk(sipp.port));
    const acc = provision(a);
    const app = await a.start();
    running.push(app); // stopped here already unless a step before failed
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'silent pbx' });
    const id = r.json.call_id as string;
    await waitFor(() => before(a, id), 10_000, 'the INVITE in flight');
    // Past the first retransmissions (Timer A: T1, 2·T1): ours and sip.js's timers all run.
    await new Promise((res) => setTimeout(res, 1200));
    const { code, ms } = await sigterm(app);
    expect(code).toBe(0);
    expect(app.output()).toMatch(/voice-alert stopped/);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    // What SIGTERM promises (docs/operations.md "Stopping"): a call not answered goes back to the
    // queue, uncounted.
    const call = a.cliJson(['calls', 'show', id]);
    expect(call).toMatchObject({ state: 'queued', attempts: 0 });
    expect(call.events.at(-1)).toMatchObject({ to: 'queued', reason: 'stopped by shutdown before the answer' });
  };

  it('an INVITE the PBX never answers (no 1xx: no CANCEL may be sent)', async () => {
    await inFlight('invite-silent.xml', (a, id) => a.cliJson(['calls', 'show', id]).state === 'dialing');
  }, 45_000);

  it('an INVITE that rang, then a PBX that never answers our CANCEL', async () => {
    await inFlight('ring-silent.xml', (a, id) => a.cliJson(['calls', 'show', id]).state === 'ringing');
  }, 45_000);

  it('after a registration and a completed call, the PBX hangs (SIGSTOP: bound, silent) with the next INVITE in flight', async () => {
    // The case as a whole: a registered trunk (kamailio, digest) that has carried a
    // call, then stops answering anything while a call is being placed. SIGTERM must neither
    // wait for the un-REGISTER nor for that INVITE's Timer B.
    const phone = await startSipp({ scenario: 'answer.xml', calls: 1, keys: { ring_ms: 10 } });
    peers.push(phone);
    const pbx = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: true, user: 'trunk-user', password: 'trunk-secret' });
    peers.push(pbx);
    // The first call is waited for to complete, its words unheard: the fastest voice and short
    // pauses end it ~2 s sooner (the others keep the slower voice: a poll must see them answered).
    const a = applianceDir({
      ...(await trunk(pbx.port, { register: true, username: 'trunk-user', password: 'trunk-secret', domain: '127.0.0.1' })),
      tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
    });
    const acc = provision(a);
    const app = await a.start();
    running.push(app); // stopped here already unless a step before failed
    await waitFor(() => /sip registered/.test(app.output()), 10_000, 'the registration');
    // Two numbers: a second call to the first would wait out calls.per_number_gap_s.
    const send = async (number: string, text: string) => {
      const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: number, error_message: text });
      return r.json.call_id as string;
    };
    const first = await send('5321234567', 'through the pbx');
    await waitFor(() => a.cliJson(['calls', 'show', first]).state === 'completed', 30_000, 'the first call to complete');
    pbx.freeze();
    const second = await send('5321234568', 'into the silence');
    await waitFor(() => a.cliJson(['calls', 'show', second]).state === 'dialing', 10_000, 'the INVITE in flight');
    await new Promise((res) => setTimeout(res, 1200)); // past Timer A's first resends
    const { code, ms } = await sigterm(app);
    expect(code).toBe(0);
    expect(app.output()).toMatch(/voice-alert stopped/);
    expect(ms).toBeLessThan(EXIT_WITHIN_MS);
    expect(a.cliJson(['calls', 'show', second])).toMatchObject({ state: 'queued', attempts: 0 });
  }, 60_000);

  it('an answered call plays to its end, then a PBX that never answers our BYE', async () => {
    const sipp = await startSipp({ scenario: 'answer-silent-bye.xml', fill: { silent_ms: SILENT_MS }, keys: { ring_ms: 10 } });
    peers.push(sipp);
    // Debug: the attempt's edges are logged with their time, the BYE's among them.
    const a = applianceDir({ ...(await trunk(sipp.port)), log: { level: 'debug' } });
    const acc = provision(a);
    const app = await a.start();
    running.push(app); // stopped here already unless a step before failed
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'silent pbx' });
    const id = r.json.call_id as string;
    await waitFor(() => a.cliJson(['calls', 'show', id]).state === 'answered', 10_000, 'the answer');
    const { code } = await sigterm(app);
    const exitedAt = Date.now();
    expect(code).toBe(0);
    expect(app.output()).toMatch(/voice-alert stopped/);
    // What SIGTERM promises (docs/operations.md "Stopping"): the answered call played to its end,
    // and is done.
    expect(a.cliJson(['calls', 'show', id])).toMatchObject({ state: 'completed', attempts: 1 });
    const bye = app
      .output()
      .split('\n')
      .map((l) => (l.startsWith('{') ? JSON.parse(l) : {}))
      .find((l) => l.msg === 'attempt state' && l.to === 'hanging_up');
    expect(bye).toBeDefined();
    expect(exitedAt - Date.parse(bye.time)).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);
});

/**
 * docs/operations.md "Configuration" (`calls.shutdown_grace_s`: "the process exits within it + 5
 * s") and
 * docs/operations.md "Stopping": whatever happened before, session timers
 * included. A voice
 * desk call through kamailio (docs/telephony.md "Voice desk") whose caller made us the RFC 4028
 * refresher: our first refresh has gone out and been answered, the next one is armed, and the call
 * is up when SIGTERM comes.
 */
describe('SIGTERM after an RFC 4028 session refresh exits within calls.shutdown_grace_s + 5 s', () => {
  const rigs = deskRig();
  afterEach(() => rigs.stopAll());
  const GRACE_S = 5;

  it('a desk call that we refreshed (re-INVITE a third of the way into 90 s), still up at the signal', async () => {
    // Silence would end the call at 60 s; the refresh comes at 30 s.
    const { a, pin, pbx } = await rigs.rig({ idleS: 60, calls: { shutdown_grace_s: GRACE_S } });
    // Debug: the refresh's answer is logged ("session refresh"), so the test knows it happened.
    const app = await a.start([], { VOICE_ALERT_LOG_LEVEL: 'debug' });
    rigs.onStop(() => app.stop()); // stopped here already unless a step before failed
    const ear = await rigs.phone();
    const caller = callDesk({
      to: `127.0.0.1:${pbx.port}`,
      desk: DESK,
      mediaPort: ear.port,
      sessionExpires: '90;refresher=uas',
      steps: [{ info: `${pin}#` }, { refreshed: true }, { hungUp: true }],
    });
    await waitFor(() => app.output().includes('voice desk caller entered the PIN of the account'), 20_000, 'the PIN');
    await waitFor(() => /"status":200,"seconds":90,"msg":"session refresh"/.test(app.output()), 45_000, 'our session refresh answered');
    const { code, ms } = await sigterm(app);
    expect(code).toBe(0);
    expect(app.output()).toMatch(/voice-alert stopped/);
    expect(ms).toBeLessThan((GRACE_S + 5) * 1000);
    // The caller saw the refresh (sipp checked it) and was hung up, not left in a dead call.
    const r = await caller;
    expect(r.code, r.output).toBe(0);
    // The menu ended because the appliance did, not because the caller hung up.
    const ended = app
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"voice desk call ended"'));
    expect(ended.map((l) => JSON.parse(l).why)).toEqual(['ended by the appliance']);
  }, 120_000);
});
