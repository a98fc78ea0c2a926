import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_STATES } from '../../src/call-model';
import { sign } from '../../src/signing';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

/** The compiled binary dialing sipp: HTTP alert in, call status out. Timers shortened. */
let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  for (const p of peers) await p.stop();
  running = [];
  peers = [];
});

async function sipConfig(sippPort: number, sip: Record<string, unknown> = {}) {
  const rtp = await freePort();
  return {
    sip: {
      server: `127.0.0.1:${sippPort}`,
      local_address: '127.0.0.1',
      local_port: 0,
      rtp_ports: `${rtp}-${rtp + 40}`,
      t1_ms: 50,
      ...sip,
    },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 2, repeat: 1 },
    // Nobody listens to the words here: the fastest voice and short pauses end each call that
    // plays to its end ~2 s sooner (as in escalation.test.ts).
    tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
  };
}

async function waitFor<T>(fn: () => Promise<T | null> | T | null, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const isFinalState = (s: unknown) => (FINAL_STATES as readonly unknown[]).includes(s);

describe('telephony through the compiled binary', () => {
  it('without sip.server it starts, queues calls and says why they stay queued', async () => {
    const a = applianceDir();
    const acc = provision(a);
    const app = await a.start();
    running.push(app);
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'success', message: 'Call queued', warning: 'No SIP trunk configured: calls wait' });
    await expect.poll(() => app.output(), { timeout: 5000 }).toMatch(/sip\.server is not set: calls are accepted and stay queued/);
    expect(a.cliJson(['calls', 'show', r.json.call_id])).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('an alert over HTTP is dialed at once, completes, and GET /api/calls/:id tells its story to its owner only', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    peers.push(sipp);
    const a = applianceDir(await sipConfig(sipp.port));
    const acc = provision(a);
    const other = provision(a);
    const app = await a.start();
    running.push(app);
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full on db1' });
    expect(r.status).toBe(200);
    const id = r.json.call_id as string;
    const get = (key: string, secret: string) =>
      fetch(`${app.url}/api/calls/${id}`, { headers: { 'x-api-key': key, 'x-api-secret': secret } }).then(async (res) => ({ status: res.status, json: await res.json() }));
    const done = await waitFor(async () => {
      const s = await get(acc.apiKey, acc.apiSecret);
      return isFinalState(s.json.call?.state) ? s : null;
    }, 30_000, 'the call to finish');
    expect(done.status).toBe(200);
    expect(done.json.call).toMatchObject({ id, state: 'completed', attempts: 1, last_sip_code: 200, acknowledged: false });
    expect(done.json.call.events.map((e: any) => e.to)).toEqual(['dialing', 'ringing', 'answered', 'completed']);
    expect(done.json.call.answered_at).not.toBeNull();
    expect((await get(other.apiKey, other.apiSecret)).status).toBe(404);
    expect((await get(acc.apiKey, 'wrong')).status).toBe(403);
    expect((await fetch(`${app.url}/api/calls/${id}`)).status).toBe(401);
    // Or signed instead of the secret: HMAC-SHA256 over `<timestamp>.<path>` (a GET has no body).
    const ts = String(Math.floor(Date.now() / 1000));
    const signed = (path: string, t = ts) =>
      fetch(`${app.url}${path}`, { headers: { 'x-api-key': acc.apiKey, 'x-timestamp': t, 'x-signature': sign(acc.apiSecret, t, new TextEncoder().encode(path)) } });
    expect((await signed(`/api/calls/${id}`)).status).toBe(200);
    expect((await signed(`/api/calls/${id}`, String(Number(ts) - 3600))).status).toBe(403);
    expect(a.cliJson(['calls', 'show', id])).toMatchObject({ state: 'completed', last_sip_code: 200 });
    expect(await sipp.exited).toBe(0);
    // The message went out as RTP, and /metrics counts it (the RTP worker's counter).
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    const sent = Number(/^voice_alert_rtp_packets_sent_total (\d+)$/m.exec(metrics)?.[1]);
    expect(sent).toBeGreaterThan(10);
  }, 40_000);

  it('SIGKILL while ringing: after a restart the call ends final, dialed again only after the lease ran out', async () => {
    // The far end rings 4 s before answering; all four attempts (2 numbers × 2) reach it.
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 4, keys: { ring_ms: 4000 } });
    peers.push(sipp);
    const a = applianceDir(await sipConfig(sipp.port));
    const acc = provision(a);
    const first = await a.start();
    const ids: string[] = [];
    for (const n of ['5321234567', '5327654321']) {
      const r = await post(`${first.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: n, error_message: 'crash test' });
      ids.push(r.json.call_id);
    }
    await waitFor(() => (ids.every((id) => a.cliJson(['calls', 'show', id]).state === 'ringing') ? true : null), 10_000, 'ringing');
    await first.kill();
    const killedAt = Date.now();
    const second = await a.start();
    running.push(second);
    const finals = await waitFor(() => {
      const calls = ids.map((id) => a.cliJson(['calls', 'show', id]));
      return calls.every((c) => isFinalState(c.state)) ? calls : null;
    }, 40_000, 'both calls final');
    for (const c of finals) {
      expect(c.state).toBe('completed');
      expect(c.attempts).toBe(2);
      const claims = c.events.filter((e: any) => e.to === 'dialing');
      expect(claims).toHaveLength(2);
      expect(claims[1].from).toBe('ringing');
      expect(claims[1].reason).toMatch(/lease expired/);
      // The second attempt began only once the dead worker's claim was over: its lease (2 s)
      // plus the ring timeout (5 s), so its orphaned INVITE cannot still be ringing there.
      expect(Date.parse(claims[1].at) - Date.parse(claims[0].at)).toBeGreaterThanOrEqual(7000);
      expect(Date.parse(claims[1].at)).toBeGreaterThanOrEqual(killedAt - 50);
    }
  }, 60_000);

  it('a trunk that cannot start is retried; the queued call waits and is then placed', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    peers.push(sipp);
    const port = await freePort();
    const squatter = createSocket('udp4');
    await new Promise<void>((r) => squatter.bind(port, '127.0.0.1', () => r()));
    const a = applianceDir(await sipConfig(sipp.port, { local_port: port }));
    const acc = provision(a);
    const app = await a.start();
    running.push(app);
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'port busy' });
    await waitFor(() => (/sip trunk failed to start: calls stay queued/.test(app.output()) ? true : null), 5000, 'the start failure');
    expect(a.cliJson(['calls', 'show', r.json.call_id])).toMatchObject({ state: 'queued', attempts: 0 });
    await new Promise<void>((res) => squatter.close(() => res()));
    const done = await waitFor(() => {
      const c = a.cliJson(['calls', 'show', r.json.call_id]);
      return isFinalState(c.state) ? c : null;
    }, 20_000, 'the call after the retry');
    expect(done).toMatchObject({ state: 'completed', attempts: 1 });
  }, 60_000); // the trunk's retry delay, then a call: 12-20 s under load (CI)

  it('SIGTERM: a ringing call is cancelled and goes back to the queue, an answered one plays to the end', async () => {
    // The phone rings for 30 s and our ring timeout is longer: the call is surely still ringing
    // (its first attempt) when the other appliance's call is answered and both stop, however
    // busy the machine (with sipConfig's 5 s it once timed out first and was retried).
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 2, keys: { ring_ms: 30_000 } });
    peers.push(sipp);
    const answering = await startSipp({ scenario: 'answer.xml', keys: { ring_ms: 10 } });
    peers.push(answering);
    // Two appliances on one database would be wrong; one each, one call each.
    const ringingConfig = await sipConfig(sipp.port);
    const ringing = applianceDir({ ...ringingConfig, calls: { ...ringingConfig.calls, ring_timeout_s: 40 } });
    const talkingConfig = await sipConfig(answering.port);
    // calls.shutdown_grace_s reaches the dialer (docs/operations.md "Configuration").
    // The slower voice and default pauses: the call stays answered (~4 s) long enough for the
    // CLI polls below to see it so on a loaded machine.
    const talking = applianceDir({ ...talkingConfig, calls: { ...talkingConfig.calls, shutdown_grace_s: 20 }, tts: { voice: 'en', speed_wpm: 400 } });
    const ringApp = await ringing.start();
    const talkApp = await talking.start();
    const send = async (a: typeof ringing, app: RunningAppliance) => {
      const acc = provision(a);
      const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'shutdown test' });
      return r.json.call_id as string;
    };
    const ringId = await send(ringing, ringApp);
    const talkId = await send(talking, talkApp);
    await waitFor(() => (ringing.cliJson(['calls', 'show', ringId]).state === 'ringing' ? true : null), 10_000, 'ringing');
    await waitFor(() => (talking.cliJson(['calls', 'show', talkId]).state === 'answered' ? true : null), 10_000, 'answered');
    const [ringExit, talkExit] = await Promise.all([ringApp.stop(), talkApp.stop()]);
    expect([ringExit, talkExit]).toEqual([0, 0]);
    const r = ringing.cliJson(['calls', 'show', ringId]);
    expect(r).toMatchObject({ state: 'queued', attempts: 0 }); // our shutdown's cancel is not an attempt
    expect(r.events.at(-1)).toMatchObject({ from: 'ringing', to: 'queued', reason: 'stopped by shutdown before the answer' });
    expect(talking.cliJson(['calls', 'show', talkId])).toMatchObject({ state: 'completed' });
    expect(ringApp.output()).toMatch(/dialer stopping/);
    expect(talkApp.output()).toMatch(/"graceMs":20000[^\n]*dialer stopping/);
  }, 40_000);

  it('SIGTERM after a refused call exits at once: no timer of the finished call keeps the process alive', async () => {
    const sipp = await startSipp({ scenario: 'final.xml', fill: { code: 603, reason: 'Decline' } });
    peers.push(sipp);
    // The default T1 (500 ms): the call's 64·T1 bounds are 32 s, longer than stop() waits.
    const a = applianceDir(await sipConfig(sipp.port, { t1_ms: 500 }));
    const acc = provision(a);
    const app = await a.start();
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full' });
    await waitFor(() => (a.cliJson(['calls', 'show', r.json.call_id]).state === 'rejected' ? true : null), 10_000, 'the call to be refused');
    const asked = Date.now();
    expect(await app.stop()).toBe(0);
    expect(Date.now() - asked).toBeLessThan(5000);
  });

  it('test-call dials through the trunk, charges nothing and reports the outcome', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    peers.push(sipp);
    const a = applianceDir(await sipConfig(sipp.port));
    const ok = a.cli(['test-call', '5321234567', 'Test call from the installer', '--json']);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ number: '5321234567', outcome: 'COMPLETED', sip_code: 200, progress: ['ringing 180', 'answered PCMU'] });
    expect(await sipp.exited).toBe(0);
    const busy = await startSipp({ scenario: 'final.xml', fill: { code: 486, reason: 'Busy Here' } });
    peers.push(busy);
    const b = applianceDir(await sipConfig(busy.port));
    // The database exists (`calls list` below refuses a missing one: docs/cli.md "CLI conventions").
    b.cliJson(['account', 'create', '--name', 'NOC', '--plan', 'starter']);
    const refused = b.cli(['test-call', '5321234567', 'hello', '--json']);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ outcome: 'SIP_FINAL', sip_code: 486 });
    expect(refused.stderr).toMatch(/not answered: SIP_FINAL 486/);
    expect(b.cliJson(['calls', 'list'])).toEqual([]);
  });
});
