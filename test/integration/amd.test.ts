import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_STATES } from '../../src/call-model';
import { configSchema } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createCallAudioSource } from '../../src/tts';
import { decodeUlaw, encodeAlaw } from '../../src/g711';
import { loadCorpus } from '../helpers/amd-corpus';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { loudFrames } from '../helpers/recording';
import { startRtpPhone, type RtpPhone } from '../helpers/rtp-phone';
import { writeRtpPcap } from '../helpers/rtp-pcap';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * docs/telephony.md "Voicemail detection" through the compiled binary: sipp answers and plays
 * a clip of the corpus (test/fixtures/amd) as RTP, and the call says who answered.
 */
let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
let phones: RtpPhone[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  for (const p of peers) await p.stop();
  for (const p of phones) await p.close();
  running = [];
  peers = [];
  phones = [];
});

const corpus = loadCorpus();
/** A clip of the corpus as a pcap in `codec`. */
function greeting(id: string, codec: 'PCMU' | 'PCMA'): string {
  const clip = corpus.find((c) => c.clip.id === id)!;
  const path = join(mkdtempSync(join(tmpdir(), 'va-amd-')), `${id}.pcap`);
  writeRtpPcap(path, codec === 'PCMU' ? clip.ulaw : encodeAlaw(decodeUlaw(clip.ulaw)), codec === 'PCMU' ? 0 : 8);
  return path;
}

const CALLS = { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [1], max_attempts: 1, repeat: 1 };
const TTS = { voice: 'en', speed_wpm: 400 };

/** `more`: other sections of the configuration. */
async function callThrough(sipp: SippPeer, amd: Record<string, unknown>, whileRinging?: () => Promise<void>, more: Record<string, unknown> = {}) {
  const rtp = await freePort();
  const a = applianceDir({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: CALLS,
    tts: TTS,
    amd: { enabled: true, ...amd },
    ...more,
  });
  const acc = provision(a);
  const app = await a.start();
  running.push(app);
  const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'disk full on db1' });
  expect(r.status).toBe(200);
  const id = r.json.call_id as string;
  await whileRinging?.();
  let call: any = null;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${app.url}/api/calls/${id}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } });
        call = (await res.json()).call;
        return (FINAL_STATES as readonly string[]).includes(call?.state);
      },
      { timeout: 40_000, interval: 200 },
    )
    .toBe(true);
  return { call, app, cli: a };
}

const answered = (call: any) => call.events.find((e: any) => e.to === 'answered');

describe('voicemail detection through the compiled binary', () => {
  it.each(['PCMU', 'PCMA'] as const)('a person saying "Alo?" (%s): human, short_greeting, and the message plays', async (codec) => {
    const sipp = await startSipp({ scenario: 'greeting.xml', fill: { pcap: greeting('human-015', codec) }, keys: { codec_name: codec, codec_pt: codec === 'PCMU' ? 0 : 8 } });
    peers.push(sipp);
    const { call, cli } = await callThrough(sipp, {});
    expect(call).toMatchObject({ state: 'completed', answered_by: 'human', amd_reason: 'short_greeting', last_reason: '200 message played' });
    expect(answered(call)).toMatchObject({ answered_by: 'human', amd_reason: 'short_greeting' });
    expect(cli.cliJson(['calls', 'show', call.id])).toMatchObject({ answered_by: 'human', amd_reason: 'short_greeting' });
  });

  it('a mailbox with a beep: machine, and with on_machine = "leave_message" the message is left after the beep; the call ends voicemail', async () => {
    const sipp = await startSipp({ scenario: 'greeting.xml', fill: { pcap: greeting('machine-000', 'PCMU') } });
    peers.push(sipp);
    const { call } = await callThrough(sipp, {});
    expect(call).toMatchObject({ answered_by: 'machine', amd_reason: 'long_greeting', state: 'voicemail', acknowledged: false, last_reason: '200 message left on a voicemail' });
    const answer = answered(call);
    const end = call.events.at(-1);
    expect(end).toMatchObject({ from: 'answered', to: 'voicemail' });
    // The beep ends 5.3 s into the greeting: nothing was left before it, and the whole message after it.
    expect(Date.parse(end.at) - Date.parse(answer.at)).toBeGreaterThan(3000);
  });

  it('a mailbox with voice_desk.number set hears, after its beep and nothing before, the message once and the voicemail sentence naming the desk, frame for frame', async () => {
    const rtpPort = await freePort();
    const phone = await startRtpPhone(rtpPort);
    phones.push(phone);
    const sipp = await startSipp({ scenario: 'answer-to-port.xml', fill: { rtp_port: rtpPort } });
    peers.push(sipp);
    const greeting = corpus.find((c) => c.clip.id === 'machine-000')!.ulaw;
    const { call, app } = await callThrough(
      sipp,
      {},
      async () => {
        await expect.poll(() => phone.remote(), { timeout: 20_000, interval: 20 }).not.toBeNull();
        await phone.say(greeting);
      },
      { voice_desk: { number: '4400' } },
    );
    expect(call).toMatchObject({ answered_by: 'machine', state: 'voicemail', last_reason: '200 message left on a voicemail' });
    // What the box recorded is what the same code renders for a voicemail with the desk's number.
    const render = (voice_desk: Record<string, unknown>) =>
      createCallAudioSource(configSchema.parse({ calls: CALLS, tts: TTS, voice_desk }), { log: silentLogger(), dataDir: mkdtempSync(join(tmpdir(), 'va-amd-tts-')) }).forVoicemail!(['disk full on db1']);
    const [named, plain] = await Promise.all([render({ number: '4400' }), render({})]);
    const heard = loudFrames(joined(phone.frames), 0xff);
    const expected = loudFrames(named.pcmu, 0xff);
    expect(expected.length).toBeGreaterThan(loudFrames(plain.pcmu, 0xff).length + 50); // "… call the voice desk on 4 4 0 0."
    expect(heard.length).toBe(expected.length);
    expect(heard.every((f, i) => Buffer.from(f).equals(Buffer.from(expected[i]!)))).toBe(true);
    // The desk is off here: the operator is told the number will be refused.
    expect(app.output()).toMatch(/voice_desk\.number is set but the voice desk is off/);
  });

  it('a mailbox with on_machine = "hangup_retry": hung up at once, counted as no answer', async () => {
    const sipp = await startSipp({ scenario: 'greeting.xml', fill: { pcap: greeting('machine-000', 'PCMU') } });
    peers.push(sipp);
    const { call } = await callThrough(sipp, { on_machine: 'hangup_retry' });
    expect(call).toMatchObject({ answered_by: 'machine', state: 'no_answer' });
    expect(call.last_reason).toMatch(/a voicemail answered \(long_greeting\)/);
  });

  it('an answer that stays silent: unknown, initial_silence, and the message still plays', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml' });
    peers.push(sipp);
    const { call } = await callThrough(sipp, {});
    expect(call).toMatchObject({ state: 'completed', answered_by: 'unknown', amd_reason: 'initial_silence', last_reason: '200 message played' });
  });

  it('a key during the analysis: human, keypress, and a 1 acknowledges at once', async () => {
    const sipp = await startSipp({ scenario: 'dtmf.xml', keys: { listen_ms: 300, digit: 1 } });
    peers.push(sipp);
    const { call } = await callThrough(sipp, {});
    expect(call).toMatchObject({ state: 'acknowledged', answered_by: 'human', amd_reason: 'keypress' });
  });
});

/**
 * A mailbox is not a person reached (docs/telephony.md "Voicemail detection"): sipp stands for
 * two phones (test/peers/sipp/mailbox-or-press.xml), MOBILE going to its mailbox (a greeting
 * with a beep from the corpus) and DESK answering with keypad 1. Every wait_s is 600 s and the
 * mobile's own retry 30 s away, so a second call placed within seconds was placed because the
 * first ended `voicemail`, not by a wait running out.
 */
const MOBILE = '5321111111';
const DESK = '5322222222';

async function mailboxThenDesk(steps: (a: ReturnType<typeof applianceDir>, accountId: string) => string[]) {
  const sipp = await startSipp({ scenario: 'mailbox-or-press.xml', calls: 2, keys: { listen_ms: 300, digit: 1 }, fill: { mailbox_number: MOBILE, pcap: greeting('machine-000', 'PCMU') } });
  peers.push(sipp);
  const rtp = await freePort();
  const a = applianceDir({
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [30], max_attempts: 2, repeat: 1, per_number_gap_s: 0 },
    tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
    amd: { enabled: true },
  });
  const acc = provision(a);
  a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', ...steps(a, acc.accountId).flatMap((s) => ['--step', s]), '--rounds', '1']);
  const app = await a.start();
  running.push(app);
  const get = async (path: string) => (await fetch(`${app.url}${path}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } })).json();
  const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'core switch down', policy: 'oncall' });
  expect(r.status).toBe(200);
  const alertId = r.json.alert_id as string;
  await expect.poll(async () => (await get(`/api/alerts/${alertId}`)).alert?.state, { timeout: 60_000, interval: 200 }).toBe('acknowledged');
  const alert = (await get(`/api/alerts/${alertId}`)).alert;
  const [mobile, desk] = await Promise.all(alert.calls.map(async (c: any) => (await get(`/api/calls/${c.id}`)).call));
  return { alert, mobile, desk, sipp };
}

/** From the mobile's end (`voicemail`) to the desk's first dial, in ms. */
const dialledAfter = (mobile: any, desk: any) => {
  const left = mobile.events.find((e: any) => e.to === 'voicemail');
  const dialling = desk.events.find((e: any) => e.to === 'dialing');
  return Date.parse(dialling.at) - Date.parse(left.at);
};

describe('a voicemail is nobody reached, through the compiled binary', () => {
  it("a person's first phone answered by its mailbox: that call ends voicemail and the second phone rings at once", async () => {
    const { alert, mobile, desk, sipp } = await mailboxThenDesk((a, accountId) => {
      a.cliJson(['person', 'create', accountId, '--name', 'Ayşe', '--phone', MOBILE, '--phone', DESK, '--json']);
      return ['+Ayşe:600'];
    });
    expect(alert.calls.map((c: any) => [c.phone_number, c.state])).toEqual([
      [MOBILE, 'voicemail'],
      [DESK, 'acknowledged'],
    ]);
    expect(mobile).toMatchObject({ answered_by: 'machine', state: 'voicemail', person: { phone: 0 } });
    expect(desk).toMatchObject({ answered_by: 'human', amd_reason: 'keypress', person: { phone: 1 } });
    // Queued in the transaction that ended the mobile's call; dialled as the dialer looks again.
    expect(dialledAfter(mobile, desk)).toBeGreaterThanOrEqual(0);
    expect(dialledAfter(mobile, desk)).toBeLessThan(10_000);
    expect(await sipp.exited).toBe(0); // exactly two calls reached the phones
  }, 90_000);

  it('an escalation step whose calls all ended voicemail: the next step starts at once, not after its wait_s', async () => {
    const { alert, mobile, desk, sipp } = await mailboxThenDesk(() => [`${MOBILE}:600`, `${DESK}:600`]);
    expect(alert.calls.map((c: any) => [c.phone_number, c.state])).toEqual([
      [MOBILE, 'voicemail'],
      [DESK, 'acknowledged'],
    ]);
    expect(mobile).toMatchObject({ answered_by: 'machine', state: 'voicemail' });
    expect(desk).toMatchObject({ state: 'acknowledged', answered_by: 'human' });
    expect(dialledAfter(mobile, desk)).toBeGreaterThanOrEqual(0);
    expect(dialledAfter(mobile, desk)).toBeLessThan(10_000);
    expect(await sipp.exited).toBe(0);
  }, 90_000);
});

/**
 * A callee who answers and hangs up while the analysis still listens (issue 46 "Bad input";
 * docs/telephony.md "Voicemail detection": `unknown` when the call ended before it decided).
 * Nothing is played, the attempt ends as any answer hung up before the message was heard
 * (`interrupted`: retried, or `failed` after the last attempt), and the person's next phone
 * rings at once.
 */
describe('a callee who hangs up during the analysis, through the compiled binary', () => {
  it('says "Alo" and hangs up before the silence after it is heard: unknown, no message played, the attempt ends interrupted and the stream stops', async () => {
    // The test's own phone holds the media end (sipp signals only), so it hears every packet
    // the appliance sends and speaks from the same socket.
    const rtpPort = await freePort();
    const phone = await startRtpPhone(rtpPort);
    phones.push(phone);
    const sipp = await startSipp({ scenario: 'answer-to-port-bye.xml', keys: { listen_ms: 1500 }, fill: { rtp_port: rtpPort, listen_ms: 1500 } });
    peers.push(sipp);
    // "Alo?" (speech 0.44–0.88 s into the clip), then its silence up to 1 s; the BYE comes
    // 1.5 s after the answer. after_greeting_silence_ms at its 5 s maximum (and the other
    // bounds beyond it) keeps a loaded machine from deciding before the BYE.
    const alo = corpus.find((c) => c.clip.id === 'human-015')!.ulaw.subarray(0, 8000);
    const { call, app } = await callThrough(sipp, { after_greeting_silence_ms: 5000, initial_silence_ms: 10_000, total_analysis_ms: 20_000 }, async () => {
      await expect.poll(() => phone.remote(), { timeout: 20_000, interval: 20 }).not.toBeNull();
      await phone.say(alo);
    });
    expect(call).toMatchObject({ state: 'failed', attempts: 1, answered_by: 'unknown', amd_reason: null, acknowledged: false });
    expect(call.last_reason).toMatch(/far end hung up before the message was played once in full/);
    expect(call.events.map((e: any) => e.to)).toEqual(['dialing', 'answered', 'failed']);
    expect(answered(call)).toMatchObject({ answered_by: 'unknown', amd_reason: null });
    // The stream ran (silence, 20 ms a packet) and carried nothing else: no message was played.
    expect(phone.frames.length).toBeGreaterThan(25);
    expect(loudFrames(joined(phone.frames), 0xff)).toEqual([]);
    expect(await sipp.exited).toBe(0);
    // Nothing left running: the RTP worker sends no more (it sends 50 packets a second while a
    // stream lives), and the answer counts as unknown.
    const sent = async () => Number(/^voice_alert_rtp_packets_sent_total (\d+)$/m.exec(await (await fetch(`${app.url}/metrics`)).text())?.[1]);
    const before = await sent();
    await new Promise((r) => setTimeout(r, 500));
    expect(await sent()).toBe(before);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/^voice_alert_calls_answered_total\{answered_by="unknown"\} 1$/m);
  });

  it("a person's first phone picked up and dropped during the analysis: the second phone rings at once and acknowledges", async () => {
    const sipp = await startSipp({ scenario: 'bye-or-press.xml', calls: 2, keys: { listen_ms: 300, digit: 1 }, fill: { bye_number: MOBILE, bye_ms: 600, listen_ms: 300 } });
    peers.push(sipp);
    const rtp = await freePort();
    const a = applianceDir({
      sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
      calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [30], max_attempts: 2, repeat: 1, per_number_gap_s: 0 },
      tts: { voice: 'en', speed_wpm: 450, pause_ms: 200 },
      amd: { enabled: true, initial_silence_ms: 10_000, total_analysis_ms: 20_000 },
    });
    const acc = provision(a);
    a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', MOBILE, '--phone', DESK, '--json']);
    a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '+Ayşe:600', '--rounds', '1']);
    const app = await a.start();
    running.push(app);
    const get = async (path: string) => (await fetch(`${app.url}${path}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } })).json();
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: 'core switch down', policy: 'oncall' });
    expect(r.status).toBe(200);
    const alertId = r.json.alert_id as string;
    await expect.poll(async () => (await get(`/api/alerts/${alertId}`)).alert?.state, { timeout: 60_000, interval: 200 }).toBe('acknowledged');
    const alert = (await get(`/api/alerts/${alertId}`)).alert;
    const [mobile, desk] = await Promise.all(alert.calls.map(async (c: any) => (await get(`/api/calls/${c.id}`)).call));
    // The mobile's own retry (30 s away) is let go once the alert is acknowledged.
    expect(mobile).toMatchObject({ phone_number: MOBILE, answered_by: 'unknown', amd_reason: null, attempts: 1 });
    expect(mobile.events.map((e: any) => e.to)).toContain('answered');
    expect(mobile.events.find((e: any) => e.to === 'queued' && e.from === 'answered')?.reason ?? mobile.last_reason).toMatch(/far end hung up before the message was played once in full/);
    expect(desk).toMatchObject({ phone_number: DESK, state: 'acknowledged', answered_by: 'human', amd_reason: 'keypress', person: { phone: 1 } });
    // Queued in the transaction that ended the mobile's attempt, not after its retry delay.
    const dropped = mobile.events.find((e: any) => e.from === 'answered');
    const dialling = desk.events.find((e: any) => e.to === 'dialing');
    expect(Date.parse(dialling.at) - Date.parse(dropped.at)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(dialling.at) - Date.parse(dropped.at)).toBeLessThan(10_000);
    expect(await sipp.exited).toBe(0);
  }, 90_000);
});

function joined(frames: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    all.set(f, at);
    at += f.length;
  }
  return all;
}
