import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/signing';
import { applianceDir, provision, type ApplianceDir, type ConfigOverrides, type RunningAppliance } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';
import { cuttableRelay } from '../helpers/cuttable-relay';
import { post } from '../helpers/http';
import { untilLoopsLookedAgain } from '../helpers/loop-ticks';
import { ROOT } from '../helpers/paths';
import { freePort } from '../helpers/ports';
import { psql, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { sipOptionsPinger } from '../helpers/sip-options';
import { startSipp, type SippPeer } from '../helpers/sipp';

// Issue 22's tests: appliances on a PostgreSQL of their own (this file freezes, restarts and
// cuts it), through the binary. docs/high-availability.md.

const TIMEOUT_MS = 2_000;
let cluster: PostgresCluster;
let databases = 0;
let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  cluster = startPostgresCluster(await freePort());
});
afterAll(() => cluster?.stop());
afterEach(async () => {
  cluster.thaw(); // a failed test must not leave it frozen for the next
  for (const r of running) await r.stop().catch(() => undefined);
  for (const p of peers) await p.stop();
  for (const c of cleanups.splice(0)) c();
  running = [];
  peers = [];
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A new empty database on the cluster; the first appliance to start migrates it. */
function newDatabase(): string {
  const name = `ha_${process.pid}_${databases++}`;
  psql(cluster.baseUrl, `CREATE DATABASE ${name}`);
  return `${cluster.baseUrl}${name}`;
}

function nodeDir(url: string, overrides: ConfigOverrides = {}): ApplianceDir {
  return applianceDir({ ...overrides, store: { url, timeout_ms: TIMEOUT_MS, ...overrides.store } });
}

/** A second appliance on the same database: the same secret.key (docs/high-availability.md). */
function secondNode(first: ApplianceDir, url: string, overrides: ConfigOverrides = {}): ApplianceDir {
  const b = nodeDir(url, overrides);
  mkdirSync(join(b.dir, 'data'), { recursive: true });
  copyFileSync(join(first.dir, 'data', 'secret.key'), join(b.dir, 'data', 'secret.key'));
  return b;
}

async function sipConfig(sippPort: number): Promise<ConfigOverrides['sip']> {
  const rtp = await freePort();
  return { server: `127.0.0.1:${sippPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 };
}

/** Times one request; never throws (a refused connection is status 0). */
async function timed<T extends { status: number }>(f: () => Promise<T>): Promise<{ ms: number; at: number; r: T | null }> {
  const t0 = performance.now();
  const r = await f().catch(() => null);
  return { ms: performance.now() - t0, at: t0, r };
}

/** Unix ms with performance.now()'s precision: what test/peers/rtp-arrivals notes, in this process. */
const wallMs = () => performance.timeOrigin + performance.now();

/** test/peers/rtp-arrivals: its port, how many packets it heard so far, and, once told to stop, when each arrived. */
async function startEar(): Promise<{ port: number; count(): number; arrivals(): Promise<number[]> }> {
  const child = spawn(process.execPath, [join(ROOT, 'test/peers/rtp-arrivals/rtp-arrivals.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL'); // only the one this test started
  });
  let out = '';
  let count = 0;
  let port = 0;
  let gotPort: () => void;
  const bound = new Promise<void>((resolve) => (gotPort = resolve));
  child.stdout!.on('data', (d) => {
    out += d;
    for (const m of out.matchAll(/^count (\d+)$/gm)) count = Number(m[1]);
    const p = /^port (\d+)$/m.exec(out);
    if (p && !port) {
      port = Number(p[1]);
      gotPort();
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await bound;
  return {
    port,
    count: () => count,
    async arrivals() {
      child.stdin!.end();
      await exited;
      return JSON.parse(/^arrivals (.*)$/m.exec(out)![1]!) as number[];
    },
  };
}

const hook = (node: RunningAppliance, key: string) => `${node.url}/webhook/receive?key=${encodeURIComponent(key)}`;

/**
 * Work leased by appliance A when it stops being able to do it: an alert under a two-step
 * policy whose first step was called and ended, its first callback hanging at the receiver (A
 * holds that lease). `urlFor` gives A's store.url (a relay's, to cut it off); the CLI and the
 * checks go to the database directly. `secondTakesOver(since)` starts B and expects it to dial
 * step 2 and deliver the callbacks within calls.lease_s + 5 s of `since`;
 * `expectNothingSentTwice()` that A, back, sent nothing B completed.
 */
async function leasedWorkRig(urlFor: (url: string) => string) {
  const url = newDatabase();
  const sipp = await startSipp({ scenario: 'answer.xml', calls: 10 });
  peers.push(sipp);
  let secret = '';
  const receiver = startCallbackReceiver(() => secret, (n) => (n === 0 ? 'hang' : 200));
  cleanups.push(() => receiver.stop());
  const leaseS = 3;
  const config = async () => ({
    sip: await sipConfig(sipp.port),
    calls: { lease_s: leaseS, answer_delay_ms: 100, ring_timeout_s: 8, repeat: 1, per_number_gap_s: 0 },
    // Nobody listens to step 1's words: the fastest voice and short pauses end its call sooner.
    tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
  });
  // The CLI runs synchronously, which would stall a relay in this process: it goes directly.
  const direct = nodeDir(url, await config());
  const acc = provision(direct, 'enterprise', ['--monthly-credit', '1000']);
  secret = direct.cliJson(['account', 'set-callback', acc.accountId, '--url', receiver.url]).callback_secret;
  direct.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '5320000001:6', '--step', '5320000002:6', '--rounds', '1']);
  const nodeA = await secondNode(direct, urlFor(url), await config()).start();
  running.push(nodeA);
  const raised = await post(`${nodeA.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'disk full', alert_key: 'disk', policy: 'oncall' });
  expect(raised.status).toBe(200);
  const alertId = raised.json.alert_id as string;
  const db = direct.database();
  cleanups.push(() => void db.close());
  const callsOf = async () => (await db.query('SELECT phone_number, state FROM calls WHERE alert_id = ? ORDER BY created_at').all(alertId)) as { phone_number: string; state: string }[];
  // Step 1 was called and ended (nobody pressed 1); the first callback hangs at the receiver.
  await expect.poll(async () => (await callsOf()).map((c) => c.state), { timeout: 30_000, interval: 100 }).toEqual(['completed']);
  await expect.poll(() => receiver.received.length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(1);
  const firstEvent = () => receiver.received[0]!.event.id as string;
  return {
    nodeA,
    acc,
    async secondTakesOver(since: number) {
      const nodeB = await secondNode(direct, url, await config()).start();
      running.push(nodeB);
      const left = () => Math.max(1_000, since + (leaseS + 5) * 1000 - Date.now());
      // B dials step 2 and delivers the callbacks, the hung one included, within the lease + 5 s.
      await expect.poll(async () => (await callsOf()).map((c) => c.phone_number), { timeout: left(), interval: 100 }).toEqual(['5320000001', '5320000002']);
      await expect.poll(() => receiver.received.filter((r) => r.event.id === firstEvent() && r.answered === 200).length, { timeout: left(), interval: 50 }).toBe(1);
    },
    /**
     * Waits until A, able to run again, has ended its hung callback request (its timeout: the
     * line saying its result was not recorded, the lease being B's or the database out of
     * reach) and then looked again with each loop that could send or dial what B did, so
     * that anything it were to send again has been sent.
     */
    async firstSettles() {
      const ended = () =>
        nodeA
          .output()
          .split('\n')
          .some((l) => l.includes(`"event":"${firstEvent()}"`) && /callback lease was taken over by another appliance|recording a callback attempt failed/.test(l));
      // The request's timeout (10 s, src/callbacks/sender.ts) runs from before A was stopped or cut.
      await expect.poll(ended, { timeout: 30_000, interval: 100 }).toBe(true);
      // The loops that could send a callback or dial a step again (src/callbacks/sender.ts,
      // src/escalation/engine.ts, src/calls/dialer.ts).
      await untilLoopsLookedAgain(nodeA.url, ['callbacks', 'escalation', 'dialer']);
    },
    async expectNothingSentTwice() {
      const byEvent = new Map<string, number>();
      for (const r of receiver.received) byEvent.set(r.event.id, (byEvent.get(r.event.id) ?? 0) + 1);
      expect(byEvent.get(firstEvent())).toBe(2); // A's hung attempt, then B's
      for (const [id, n] of byEvent) if (id !== firstEvent()) expect(n, id).toBe(1);
      const delivered = (await db.query("SELECT count(*) AS n FROM callback_outbox WHERE event_id = ? AND state = 'delivered' AND attempts = 1").get(firstEvent())) as { n: number };
      expect(delivered.n).toBe(1);
      expect((await callsOf()).map((c) => c.phone_number)).toEqual(['5320000001', '5320000002']);
    },
  };
}

describe('the PostgreSQL store under trouble', () => {
  it('frozen for 10 s (SIGSTOP): /metrics, a panel file and SIP OPTIONS answer within 100 ms, the call streams without a gap over 60 ms and completes, webhooks answer 503 or 200 and every 200 is stored', async () => {
    const url = newDatabase();
    // Our RTP goes to an ear in a process of its own, which notes when each packet arrived.
    const ear = await startEar();
    const sipp = await startSipp({ scenario: 'answer-media-at.xml', calls: 1, fill: { media_addr: '127.0.0.1', media_ip_type: 4, media_port: ear.port } });
    peers.push(sipp);
    const a = nodeDir(url, { sip: await sipConfig(sipp.port), calls: { answer_delay_ms: 100, repeat: 1 }, tts: { voice: 'en', speed_wpm: 175 } });
    const acc = provision(a, 'enterprise', ['--monthly-credit', '1000']);
    const node = await a.start();
    running.push(node);

    // About 18 s of speech (the intro, 13 s of message, the prompt): it outlasts the freeze,
    // which begins half a second in, by some 7 s, and the call ends soon after.
    const words = 'the primary database cluster in the second data centre stopped answering and every service that depends on it';
    const message = `${words}, ${words}.`;
    const call = await post(`${node.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321112233', error_message: message });
    expect(call.status).toBe(200);
    await expect.poll(() => ear.count(), { timeout: 20_000, interval: 50 }).toBeGreaterThan(25);
    // SIP signalling too: the appliance's own SIP port answers OPTIONS (docs/high-availability.md
    // "High availability": nothing that does not need the database waits for it).
    const sipPort = Number(/"port":(\d+),"msg":"sip trunk ready"/.exec(node.output())?.[1]);
    const sip = await sipOptionsPinger(sipPort);
    cleanups.push(() => sip.close());
    expect(await sip.ping()).toMatchObject({ status: 200 });

    cluster.freeze();
    const frozenAt = performance.now();
    const frozenAtMs = wallMs();
    const probes: { ms: number; status: number | null; what: string }[] = [];
    const webhooks: ReturnType<typeof timed<Awaited<ReturnType<typeof post>>>>[] = [];
    while (performance.now() - frozenAt < 10_000) {
      for (const path of ['/metrics', '/panel/assets/panel.css']) {
        const t = await timed(() => fetch(`${node.url}${path}`).then(async (r) => (await r.arrayBuffer(), r)));
        probes.push({ ms: t.ms, status: t.r?.status ?? null, what: path });
      }
      const options = await sip.ping();
      probes.push({ ms: options.ms, status: options.status, what: 'SIP OPTIONS' });
      if (webhooks.length < (performance.now() - frozenAt) / 500) {
        webhooks.push(timed(() => post(hook(node, acc.webhookKey), { phone_number: `53200000${String(webhooks.length).padStart(2, '0')}`, error_message: 'stalled' })));
      }
      await sleep(50);
    }
    cluster.thaw();
    const thawedAtMs = wallMs();

    expect(probes.filter((p) => p.status !== 200)).toEqual([]);
    const slowest = probes.reduce((a, b) => (b.ms > a.ms ? b : a));
    expect(slowest.ms, `slowest: ${slowest.what}`).toBeLessThan(100);
    expect(probes.filter((p) => p.what === 'SIP OPTIONS').length).toBeGreaterThan(20);
    const answered = await Promise.all(webhooks);
    expect(answered.length).toBeGreaterThanOrEqual(18);
    for (const w of answered) {
      expect([200, 503]).toContain(w.r?.status);
      // Never held longer than store.timeout_ms (and a second for the rest), frozen or not.
      expect(w.ms).toBeLessThan(TIMEOUT_MS + 1_000);
      if (w.r?.status === 503) expect(w.r.json).toMatchObject({ message: 'Database unavailable', code: 'database_unavailable' });
    }
    expect(answered.filter((w) => w.r?.status === 503).length).toBeGreaterThan(0);
    // Every 200 is in the database.
    const db = a.database();
    cleanups.push(() => void db.close());
    for (const w of answered.filter((x) => x.r?.status === 200)) {
      const id = w.r!.json.call_ids[0] as string;
      expect(await db.query('SELECT id FROM calls WHERE id = ?').get(id)).toEqual({ id });
    }
    // The call went on through the freeze and completes.
    const stateOf = async () => ((await db.query('SELECT state FROM calls WHERE id = ?').get(call.json.call_id)) as { state: string } | null)?.state;
    await expect.poll(stateOf, { timeout: 60_000, interval: 250 }).toBe('completed');
    const during = (await ear.arrivals()).filter((t) => t > frozenAtMs - 500 && t < thawedAtMs + 500);
    let gap = 0;
    let at = 0;
    for (let i = 1; i < during.length; i++) if (during[i]! - during[i - 1]! > gap) [gap, at] = [during[i]! - during[i - 1]!, i];
    expect(during.length).toBeGreaterThan(400); // 10 s of 20 ms packets
    // On failure: where the gap was, the spacing around it, and whether the appliance's own
    // clock saw a late tick (voice_alert_rtp_late_ticks_total): the sender late, or the ear.
    const from = Math.max(1, at - 5);
    const spacing = during.slice(from, at + 6).map((t, k) => Math.round(t - during[from + k - 1]!));
    const lateTicks = /^voice_alert_rtp_late_ticks_total (\d+)/m.exec(await (await fetch(`${node.url}/metrics`)).text())?.[1];
    expect(gap, `gap at ${Math.round(during[at]! - frozenAtMs)} ms into the freeze; spacing around it ${spacing.join(' ')}; late ticks ${lateTicks}`).toBeLessThan(60);
  }, 120_000);

  it('a hung appliance (SIGSTOP, its connections open) leaves its due escalation step and leased callbacks to another within calls.lease_s + 5 s; woken, it sends nothing again', async () => {
    const rig = await leasedWorkRig((url) => url);
    rig.nodeA.process.kill('SIGSTOP');
    const frozenAt = Date.now();
    try {
      await rig.secondTakesOver(frozenAt);
    } finally {
      rig.nodeA.process.kill('SIGCONT');
    }
    // Woken, A finds its lease taken over: its hung request ends (callback timeout) and nothing
    // it held is sent again or recorded over B's result; step 2 was dialled once.
    await rig.firstSettles();
    await rig.expectNothingSentTwice();
  }, 120_000);

  it('an appliance cut off from the database (its link silent, its connections open): it answers 503 in time and /healthz says so, another sends its due step and callbacks within calls.lease_s + 5 s; reconnected, it takes webhooks again and sends nothing again', async () => {
    // A reaches PostgreSQL through a relay the test can cut; B directly.
    const relay = await cuttableRelay(cluster.port);
    cleanups.push(() => void relay.close());
    const rig = await leasedWorkRig((url) => url.replace(`127.0.0.1:${cluster.port}/`, `127.0.0.1:${relay.port}/`));
    const { nodeA, acc } = rig;
    relay.cut();
    const cutAt = Date.now();
    try {
      // A is alive but hears nothing from its database: an answer in time, not a hang or a 500.
      const during = await timed(() => post(hook(nodeA, acc.webhookKey), { phone_number: '5329999999', error_message: 'cut off' }));
      expect(during.r?.status).toBe(503);
      expect(during.r?.json).toMatchObject({ message: 'Database unavailable', code: 'database_unavailable' });
      expect(during.ms).toBeLessThan(TIMEOUT_MS + 1_000);
      const health = await fetch(`${nodeA.url}/healthz`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { checks: { database: string } }).checks.database).toBe('down');
      await rig.secondTakesOver(cutAt);
    } finally {
      relay.restore();
    }
    // Reconnected, A takes webhooks again within a few seconds (its pool replaced what the cut
    // left behind) and sends nothing that B completed.
    const restoredAt = performance.now();
    await expect.poll(async () => (await post(hook(nodeA, acc.webhookKey), { phone_number: '5329999998', error_message: 'back' })).status, { timeout: 10_000, interval: 250 }).toBe(200);
    expect(performance.now() - restoredAt).toBeLessThan(10_000);
    await rig.firstSettles();
    await rig.expectNothingSentTwice();
  }, 120_000);

  it('pg_ctl restart -m fast under webhook load from two appliances: no 500, nothing held past store.timeout_ms + 1 s, every 200 stored, 200s again within 5 s; then idle, and after every pooled connection is terminated', async () => {
    const url = newDatabase();
    const a = nodeDir(url);
    const acc = provision(a, 'enterprise', ['--monthly-credit', '100000']);
    const b = secondNode(a, url);
    const nodes = [await a.start(), await b.start()];
    running.push(...nodes);
    const results: { ms: number; at: number; status: number; callId?: string }[] = [];
    let n = 0;
    let stopAt = Infinity;
    const worker = async () => {
      while (performance.now() < stopAt) {
        const i = n++;
        const t = await timed(() => post(hook(nodes[i % 2]!, acc.webhookKey), { phone_number: '5321234567', error_message: `load ${i}` }));
        results.push({ ms: t.ms, at: t.at, status: t.r?.status ?? 0, callId: t.r?.json?.call_ids?.[0] });
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    // The load under way (more than ten 200s) before the restart, as asserted below.
    await expect.poll(() => results.filter((r) => r.status === 200).length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(10);
    const restartAt = performance.now();
    await cluster.restart();
    const backAt = performance.now();
    stopAt = backAt + 6_000;
    await load;

    expect(results.filter((r) => r.status !== 200 && r.status !== 503)).toEqual([]);
    expect(Math.max(...results.map((r) => r.ms))).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(results.filter((r) => r.at < restartAt && r.status === 200).length).toBeGreaterThan(10);
    // 200s again within 5 s of the database's return.
    const firstAfter = results.filter((r) => r.at >= backAt && r.status === 200).sort((x, y) => x.at - y.at)[0];
    expect(firstAfter).toBeDefined();
    expect(firstAfter!.at - backAt).toBeLessThan(5_000);
    const db = a.database();
    cleanups.push(() => void db.close());
    const stored = (await db.query('SELECT count(*) AS n FROM calls').get()) as { n: number };
    const ok = results.filter((r) => r.status === 200);
    expect(stored.n).toBeGreaterThanOrEqual(ok.length);
    for (const r of ok) expect(await db.query('SELECT id FROM calls WHERE id = ?').get(r.callId)).toEqual({ id: r.callId });

    // Idle appliances: a restart, then each answers 200 within 5 s of the database's return.
    await cluster.restart();
    const idleBackAt = performance.now();
    for (const node of nodes) {
      let status = 0;
      while (status !== 200 && performance.now() - idleBackAt < 5_000) {
        status = (await post(hook(node, acc.webhookKey), { phone_number: '5321234567', error_message: 'after idle restart' })).status;
        expect([200, 503]).toContain(status);
      }
      expect(status).toBe(200);
    }

    // Every pooled connection ended by the server (57P01): the next requests are 200 at once.
    psql(cluster.baseUrl, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'voice-alert'");
    for (const node of nodes) {
      for (let i = 0; i < 5; i++) expect((await post(hook(node, acc.webhookKey), { phone_number: '5321234567', error_message: `after terminate ${i}` })).status).toBe(200);
    }
  }, 120_000);

  it('a signed request replayed to another appliance is 403 Invalid signature, as on one', async () => {
    const url = newDatabase();
    const a = nodeDir(url);
    const acc = provision(a, 'enterprise', ['--monthly-credit', '1000']);
    const b = secondNode(a, url);
    const [nodeA, nodeB] = [await a.start(), await b.start()];
    running.push(nodeA, nodeB);
    const body = JSON.stringify({ phone_number: '5321234567', error_message: 'signed once' });
    const ts = String(Math.floor(Date.now() / 1000));
    const headers = { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': sign(acc.webhookKey, ts, new TextEncoder().encode(body)) };
    expect((await post(hook(nodeA, acc.webhookKey), body, headers)).status).toBe(200);
    const replayed = await post(hook(nodeB, acc.webhookKey), body, headers);
    expect(replayed.status).toBe(403);
    expect(replayed.json).toMatchObject({ message: 'Invalid signature' });
    expect((await post(hook(nodeA, acc.webhookKey), body, headers)).status).toBe(403);
  }, 60_000);
});
