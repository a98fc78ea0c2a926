import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { startCallbackReceiver } from '../helpers/callback-receiver';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { parsePromText, sampleValue } from '../helpers/prom-text';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * Contract "Nothing silently calls nobody" (docs/on-call.md), each unroutable case of a request
 * and of an escalation through the compiled binary, the account's fallback dialled through a
 * trunk: sipp answers every call (and presses nothing) and logs each message it receives, so
 * the INVITE that carries the fallback's number is seen where it arrives, not only as a row in
 * the calls table (src/escalation/unroutable.test.ts and fallback-cli.test.ts stop there; a
 * heartbeat's case is heartbeat-call.test.ts). One appliance and one sipp for the file; each
 * case sets the fallback it needs, a number of its own, so its INVITEs are told apart.
 */
const TZ = 'Europe/Istanbul';
const CEM = '5323333333';
const DENIZ = '5324444444';

let sipp: SippPeer;
let messageLog: string;
let dir: ApplianceDir;
let acc: ReturnType<typeof provision>;
let app: RunningAppliance;
let secret = '';
const hook = startCallbackReceiver(() => secret);

/** An `HH:00` in the schedule's zone, `hours` whole hours after the current one. */
function localHourFromNow(hours: number): string {
  const h = Number(new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', hourCycle: 'h23' }).format(new Date()));
  return `${String((h + hours) % 24).padStart(2, '0')}:00`;
}

beforeAll(async () => {
  messageLog = join(mkdtempSync(join(tmpdir(), 'va-fallback-')), 'sipp-messages.log');
  // Every call answered after 10 ms of ringing; the appliance speaks and hangs up (nobody presses 1).
  sipp = await startSipp({ scenario: 'answer.xml', calls: 1000, keys: { ring_ms: 10 }, extra: ['-trace_msg', '-message_file', messageLog] });
  const rtp = await freePort();
  dir = applianceDir({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 10, retry_delays_s: [1], max_attempts: 1, repeat: 1, per_number_gap_s: 0, max_concurrent: 20 },
    // Nobody listens to the words here: the fastest voice and short pauses end each call sooner.
    tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
  });
  acc = provision(dir);
  secret = dir.cliJson(['account', 'set-callback', acc.accountId, '--url', hook.url]).callback_secret;
  const layer = (number: string, start: string, restrictions?: unknown[]) => [{ participants: [{ name: 'Cem', number }], shift: '7d', start, ...(restrictions ? { restrictions } : {}) }];
  const schedule = (name: string, layers: unknown[]) =>
    dir.cliJson(['schedule', 'create', acc.accountId, '--name', name, '--time-zone', TZ, '--layers', JSON.stringify(layers)]);
  // A gap in the rota: Cem is on call every day, but only in an hour that is at least five away.
  const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  schedule('evening', layer(CEM, '2026-01-05T09:00', [{ days, from: localHourFromNow(6), to: localHourFromNow(7) }]));
  // Nobody yet: its only layer starts in 2099.
  schedule('later', layer(CEM, '2099-01-05T09:00'));
  // Deniz is on call now (until a test changes the rota).
  schedule('primary', layer(DENIZ, '2026-01-05T09:00'));
  dir.cliJson(['policy', 'create', acc.accountId, '--name', 'gap', '--step', '@evening:60']);
  dir.cliJson(['policy', 'create', acc.accountId, '--name', 'both', '--step', '@evening:60', '--step', '@later:60']);
  // rounds 2: after step 2 reaches nobody, step 1 is looked at again (src/escalation/route.ts).
  dir.cliJson(['policy', 'create', acc.accountId, '--name', 'mid', '--step', '@primary:5', '--step', '@later:1', '--rounds', '2']);
  app = await dir.start();
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await sipp?.stop();
  hook.stop();
});

/** Call-IDs of the INVITEs sipp received for `number`, in its Request-URI and its To (a retransmission is not a new dial). */
function invitesTo(number: string): string[] {
  let text = '';
  try {
    text = readFileSync(messageLog, 'utf8');
  } catch {
    return []; // sipp writes the file with the first message
  }
  const ids = new Set<string>();
  for (const block of text.split(/message received/)) {
    const uri = /^INVITE sip:(\d+)@/m.exec(block);
    const to = /^To:.*<sip:(\d+)@/im.exec(block);
    const callId = /^Call-ID:\s*(\S+)/im.exec(block);
    if (uri?.[1] === number && to?.[1] === number && callId) ids.add(callId[1]!);
  }
  return [...ids];
}

const unroutableTotal = async () => sampleValue(parsePromText(await (await fetch(`${app.url}/metrics`)).text()), 'voice_alert_alerts_unroutable_total') ?? 0;

const alertOf = async (id: string) =>
  (await (await fetch(`${app.url}/api/alerts/${id}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } })).json()).alert as {
    state: string;
    state_reason: string | null;
    unroutable: string | null;
    calls: { id: string; phone_number: string; state: string; person: { id: string; phone: number } | null }[];
  };

/** The `alert.unroutable` callbacks of one alert that arrived, signed. */
const unroutableCallbacks = (alertId: string) => hook.received.filter((r) => r.event.type === 'alert.unroutable' && r.event.alert?.id === alertId);

/** Everything a reached-nobody alert must show once its one fallback call to `number` ended unanswered. */
async function expectFallbackCalled(alertId: string, why: string, number: string, before: number) {
  // The fallback's call, dialled through the trunk and answered there; nobody pressed 1.
  await expect.poll(async () => (await alertOf(alertId)).state, { timeout: 40_000, interval: 250 }).toBe('unacknowledged');
  const alert = await alertOf(alertId);
  const fallbackCalls = alert.calls.filter((c) => c.phone_number === number);
  expect(fallbackCalls.map((c) => c.state)).toEqual(['completed']);
  await expect.poll(() => invitesTo(number).length, { timeout: 10_000, interval: 200 }).toBe(1);
  // The reason says who could not be found and that the fallback was called, not that a policy's people were.
  expect(alert).toMatchObject({ unroutable: why, state_reason: `${why}; the fallback was called, nobody pressed 1` });
  expect(alert.state_reason).not.toMatch(/every step called/);
  // Counted, and called back once with the fallback's call.
  expect(await unroutableTotal()).toBe(before + 1);
  await expect.poll(() => unroutableCallbacks(alertId).length, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(1);
  const [cb] = unroutableCallbacks(alertId);
  expect(cb!.signatureValid).toBe(true);
  expect(cb!.event).toMatchObject({ reason: why, fallback: { number, call_ids: [fallbackCalls[0]!.id] } });
  expect(new Set(unroutableCallbacks(alertId).map((r) => r.event.id)).size).toBe(1);
  return alert;
}

describe('an alert that reaches nobody calls the account fallback through the trunk', () => {
  it('a webhook to a policy whose schedule is in a gap of its rota: warning, metric, callback, and the fallback number rings', async () => {
    const FALLBACK = '5329990001';
    dir.cliJson(['account', 'set-fallback', acc.accountId, '--phone', FALLBACK]);
    const why = 'step 1: schedule evening has nobody on call';
    const before = await unroutableTotal();
    const r = await post(`${app.url}/webhook/receive?key=${acc.webhookKey}`, { error_message: 'Disk dolu', policy: 'gap' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'success', message: '1 call(s) queued', warning: `Nobody to call: ${why}`, call_ids: [expect.any(String)] });
    expect((await alertOf(r.json.alert_id)).calls.map((c) => [c.id, c.phone_number])).toEqual([[r.json.call_ids[0], FALLBACK]]);
    const alert = await expectFallbackCalled(r.json.alert_id, why, FALLBACK, before);
    // The fallback was the alert's only call: Cem (in the gap) never rang.
    expect(alert.calls).toHaveLength(1);
    expect(invitesTo(CEM)).toEqual([]);
  }, 90_000);

  it("the fallback a person: an API request reaching nobody rings the person's first phone, the call naming them", async () => {
    const [FIRST, SECOND] = ['5329990011', '5329990012'];
    const ayse = dir.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', FIRST, '--phone', SECOND]);
    dir.cliJson(['account', 'set-fallback', acc.accountId, '--person', 'Ayşe']);
    const why = 'step 1: schedule evening has nobody on call';
    const before = await unroutableTotal();
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'Core switch down', policy: 'gap' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'success', warning: `Nobody to call: ${why}` });
    const alert = await expectFallbackCalled(r.json.alert_id, why, FIRST, before);
    expect(alert.calls.map((c) => [c.phone_number, c.person])).toEqual([[FIRST, { id: ayse.id, phone: 0 }]]);
    // Her first phone answered: the second never rang.
    expect(invitesTo(SECOND)).toEqual([]);
  }, 90_000);

  it('a policy all of whose steps reach nobody (a rota gap, then a schedule not started): the fallback is dialled once', async () => {
    const FALLBACK = '5329990021';
    dir.cliJson(['account', 'set-fallback', acc.accountId, '--phone', FALLBACK]);
    const why = 'step 1: schedule evening has nobody on call; step 2: schedule later has nobody on call';
    const before = await unroutableTotal();
    const r = await post(`${app.url}/webhook/receive?key=${acc.webhookKey}`, { error_message: 'Disk dolu', policy: 'both' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ warning: `Nobody to call: ${why}` });
    const alert = await expectFallbackCalled(r.json.alert_id, why, FALLBACK, before);
    expect(alert.calls.map((c) => c.phone_number)).toEqual([FALLBACK]);
  }, 90_000);

  it('mid-escalation: step 1 called Deniz, then the rota changed; when every step reaches nobody the fallback is dialled once', async () => {
    const FALLBACK = '5329990031';
    dir.cliJson(['account', 'set-fallback', acc.accountId, '--phone', FALLBACK]);
    const before = await unroutableTotal();
    const r = await post(`${app.url}/webhook/receive?key=${acc.webhookKey}`, { error_message: 'Disk dolu', policy: 'mid' });
    expect(r.status).toBe(200);
    // Deniz was on call: the escalation started with him, and the answer has no warning.
    expect(r.json.warning).toBeUndefined();
    const alertId = r.json.alert_id as string;
    expect((await alertOf(alertId)).calls.map((c) => c.phone_number)).toEqual([DENIZ]);
    // The rota changes under the running escalation (step 1's targets were resolved as it began):
    // from now on primary has nobody either. Well inside step 1's wait (5 s from the request), so
    // the engine's next look, after Deniz's call ended and the wait, sees it.
    const put = await fetch(`${app.url}/api/schedules/primary`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret },
      body: JSON.stringify({ layers: [{ participants: [{ name: 'Deniz', number: DENIZ }], shift: '7d', start: '2099-01-05T09:00' }] }),
    });
    expect(put.status).toBe(200);
    // Deniz answers and presses nothing; after step 1's wait the engine finds step 2, then step 1
    // of round 2, with nobody: the alert is unroutable from here on.
    const why = 'step 2: schedule later has nobody on call; step 1: schedule primary has nobody on call';
    const alert = await expectFallbackCalled(alertId, why, FALLBACK, before);
    expect(alert.calls.map((c) => [c.phone_number, c.state])).toEqual([
      [DENIZ, 'completed'],
      [FALLBACK, 'completed'],
    ]);
    expect(invitesTo(DENIZ)).toHaveLength(1);
  }, 90_000);
});
