import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinal } from '../../src/call-model';
import { readWav } from '../../src/tts';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { loadCorpus } from '../helpers/amd-corpus';
import { baresipWav, startBaresip, startKamailio } from '../helpers/pbx';
import { freePort } from '../helpers/ports';
import { compareThroughDecoder, expectedAudio, loudFrames } from '../helpers/recording';
import { startSipp } from '../helpers/sipp';
import { makeTestCa } from '../helpers/test-ca';

/**
 * docs/telephony.md "SIP over TLS and SRTP", through the compiled binary: kamailio takes our SIP
 * over TLS (its tls module, a certificate from a CA made here) and relays to baresip, which
 * insists on SRTP (`mediaenc=srtp-mand`) and records what it decrypts. The recording must
 * hold the message's G.711 frames exactly, as with plain RTP (telephony-pbx.test.ts).
 */
const MESSAGE = 'Disk full on database one';
const USER = 'voice-alert';
const PASSWORD = 'trunk-secret';
const DIALED = '05321234567';
const callsConfig = { answer_delay_ms: 300, ring_timeout_s: 10, retry_delays_s: [1], max_attempts: 1, repeat: 1 };
const ttsConfig = { voice: 'en', speed_wpm: 300 };

let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

const ca = makeTestCa();
const pbxCert = ca.issue('pbx', ['IP:127.0.0.1', 'DNS:localhost']);

async function appliance(sip: Record<string, unknown>, more: Record<string, unknown> = {}) {
  const rtp = await freePort();
  const a = applianceDir({
    sip: { domain: '127.0.0.1', username: USER, dial_prefix: '0', local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 100, ...sip },
    calls: callsConfig,
    tts: ttsConfig,
    ...more,
  });
  return a;
}

async function callAndWait(a: ReturnType<typeof applianceDir>) {
  const acc = provision(a);
  const app: RunningAppliance = await a.start();
  stops.push(() => app.stop());
  const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: MESSAGE });
  expect(r.status).toBe(200);
  const end = Date.now() + 60_000;
  for (;;) {
    const c = a.cliJson(['calls', 'show', r.json.call_id]);
    if (isFinal(c.state)) return { call: c, app };
    if (Date.now() > end) throw new Error(`call still ${c.state}: ${JSON.stringify(c.events)}\n${app.output().slice(-3000)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('SIP over TLS with SRTP (SDES) through kamailio to baresip', () => {
  it.each(['PCMU', 'PCMA'] as const)('%s: registered over TLS, media over SRTP (the phone takes nothing else), recording frame-exact', async (codec) => {
    const phone = await startBaresip({ user: DIALED, codec, srtp: true });
    stops.push(() => phone.stop());
    const pbx = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: true, user: USER, password: PASSWORD, tls: pbxCert });
    stops.push(() => pbx.stop());
    const a = await appliance({ server: `127.0.0.1:${pbx.tlsPort}`, transport: 'tls', tls_ca_file: ca.caFile, srtp: 'sdes', password: PASSWORD, register: true });
    const [expected, { call, app }] = await Promise.all([expectedAudio(MESSAGE, { calls: callsConfig, tts: ttsConfig }), callAndWait(a)]);
    expect(call).toMatchObject({ state: 'completed', attempts: 1, last_sip_code: 200 });
    expect(app.output()).toMatch(/sip registered/);
    // kamailio saw REGISTER, INVITE and our BYE arrive over TLS (its log, through a pipe).
    for (const m of ['REGISTER', 'INVITE', 'BYE']) await expect.poll(() => pbx.output(), { timeout: 5000 }).toMatch(new RegExp(`${m} over tls from 127\\.0\\.0\\.1`));
    await phone.stop(); // sndfile closes its files on exit
    const dec = readdirSync(phone.recordDir).filter((f) => f.endsWith('-dec.wav'));
    expect(dec).toHaveLength(1);
    const pcm = readWav(readFileSync(join(phone.recordDir, dec[0]!)));
    const heard = loudFrames(pcm.samples, pcm.samples[0]!);
    const sent = codec === 'PCMU' ? loudFrames(expected.pcmu, 0xff) : loudFrames(expected.pcma, 0xd5);
    expect(sent.length).toBeGreaterThan(50);
    expect(compareThroughDecoder(sent, heard)).toEqual([]);
  });

  // The control for the test above: this phone takes SRTP only, so a recording proves SRTP.
  it('the same phone refuses a plain RTP offer (488) from a trunk without srtp', async () => {
    const phone = await startBaresip({ user: DIALED, codec: 'PCMU', srtp: true });
    stops.push(() => phone.stop());
    const pbx = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: false, user: USER, password: PASSWORD, tls: pbxCert });
    stops.push(() => pbx.stop());
    const a = await appliance({ server: `127.0.0.1:${pbx.tlsPort}`, transport: 'tls', tls_ca_file: ca.caFile });
    const { call } = await callAndWait(a);
    expect(call).toMatchObject({ state: 'failed', last_sip_code: 488 });
  });

  it('a trunk with srtp = "sdes" whose far end answers plain RTP ends the call with the SRTP reason', async () => {
    const sipp = await startSipp({ scenario: 'answer.xml', extra: ['-timeout', '20s'] });
    stops.push(() => sipp.stop());
    const pbx = await startKamailio({ target: `127.0.0.1:${sipp.port}`, auth: false, user: USER, password: PASSWORD, tls: pbxCert });
    stops.push(() => pbx.stop());
    const a = await appliance({ server: `127.0.0.1:${pbx.tlsPort}`, transport: 'tls', tls_ca_file: ca.caFile, srtp: 'sdes' });
    const { call } = await callAndWait(a);
    expect(call.state).not.toBe('completed');
    const reasons = (call.events as { reason?: string }[]).map((e) => e.reason ?? '');
    expect(reasons.some((r) => r.startsWith('SRTP required: the PBX answered plain RTP'))).toBe(true);
  });
});

/**
 * docs/telephony.md "Voicemail detection" under SRTP: the analysis hears the callee's audio
 * after decryption. baresip (SRTP only) sends a clip of the corpus (test/fixtures/amd) through
 * its aufile module instead of its tone; the answer is decided from it, not `unknown`.
 */
describe('voicemail detection under SRTP, through kamailio (TLS) to baresip', () => {
  const corpus = loadCorpus();
  it.each([
    ['human-015', 'a person saying "Alo?"', { answered_by: 'human', amd_reason: 'short_greeting', state: 'completed' }],
    ['machine-000', 'a mailbox greeting with a beep', { answered_by: 'machine', amd_reason: 'long_greeting', state: 'voicemail' }],
  ] as const)('%s (%s): decided from the decrypted audio', async (id, _what, expected) => {
    const clip = corpus.find((c) => c.clip.id === id)!;
    const dir = mkdtempSync(join(tmpdir(), 'va-srtp-amd-'));
    const phone = await startBaresip({ user: DIALED, codec: 'PCMU', srtp: true, play: baresipWav(clip.ulaw, dir, id) });
    stops.push(() => phone.stop());
    const pbx = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: true, user: USER, password: PASSWORD, tls: pbxCert });
    stops.push(() => pbx.stop());
    const a = await appliance({ server: `127.0.0.1:${pbx.tlsPort}`, transport: 'tls', tls_ca_file: ca.caFile, srtp: 'sdes', password: PASSWORD, register: true }, { amd: { enabled: true } });
    const { call } = await callAndWait(a);
    expect(call).toMatchObject({ ...expected, attempts: 1, last_sip_code: 200 });
    expect(phone.output()).toMatch(/aufile/);
  });
});

describe('voice-alert doctor with transport = "tls"', () => {
  it('verifies the certificate (ok line) and refuses one from another CA with a clear line and fix', async () => {
    const pbx = await startKamailio({ target: '127.0.0.1:9', auth: false, user: USER, password: PASSWORD, tls: pbxCert });
    stops.push(() => pbx.stop());
    const doctor = async (sip: Record<string, unknown>) => {
      const a = await appliance({ server: `127.0.0.1:${pbx.tlsPort}`, transport: 'tls', ...sip });
      const json = a.cli(['doctor', '--json']);
      const text = a.cli(['doctor']);
      const doc = JSON.parse(json.stdout) as { ok: boolean; checks: { name: string; status: string; detail: string; remedy?: string }[] };
      return { json, text, byName: Object.fromEntries(doc.checks.map((c) => [c.name, c])) };
    };

    const good = await doctor({ tls_ca_file: ca.caFile });
    expect(good.byName['trunk.tls']).toMatchObject({ status: 'ok', detail: `127.0.0.1:${pbx.tlsPort} presented a certificate trusted by tls_ca_file ${ca.caFile}` });
    expect(good.byName['trunk.options']).toMatchObject({ status: 'ok' });

    const otherCa = makeTestCa();
    const bad = await doctor({ tls_ca_file: otherCa.caFile });
    expect(bad.json.status).toBe(1);
    expect(bad.byName['trunk.tls']!.status).toBe('fail');
    expect(bad.byName['trunk.tls']!.detail).toMatch(new RegExp(`^the TLS certificate of 127\\.0\\.0\\.1:${pbx.tlsPort} was refused: .+ \\([A-Z_]+\\); checked against tls_ca_file `));
    expect(bad.text.stdout).toMatch(/^FAIL {2}trunk\.tls {6}the TLS certificate of .* was refused: .* -> fix: set sip\.tls_ca_file to the CA that signed the PBX certificate/m);
    expect(bad.byName['trunk.options']).toBeUndefined(); // one line for one cause

    const systemOnly = await doctor({});
    expect(systemOnly.byName['trunk.tls']).toMatchObject({ status: 'fail' });
    expect(systemOnly.byName['trunk.tls']!.detail).toContain("checked against the system's CAs");
  });
});
