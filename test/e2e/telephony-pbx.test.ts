import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isFinal } from '../../src/call-model';
import { readWav } from '../../src/tts';
import { applianceDir, provision, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { startBaresip, startKamailio, type Peer } from '../helpers/pbx';
import { freePort } from '../helpers/ports';
import { compareThroughDecoder, expectedAudio as renderExpected, loudFrames } from '../helpers/recording';

/**
 * The whole path: HTTP alert → compiled binary → kamailio (the PBX, digest or IP trust) →
 * baresip (answers, records). The recording must hold the rendered message's G.711
 * frames exactly and in order.
 */
const MESSAGE = 'Disk full on database one';
const USER = 'voice-alert';
const PASSWORD = 'trunk-secret';
const DIALED = '05321234567'; // dial_prefix "0" + the stored 10 digits

let stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

const callsConfig = { answer_delay_ms: 300, ring_timeout_s: 10, retry_delays_s: [1], max_attempts: 1, repeat: 1 };
const ttsConfig = { voice: 'en', speed_wpm: 300 };

/** What the binary will play (test/helpers/recording.ts renders it with the same code and settings). */
const expectedAudio = () => renderExpected(MESSAGE, { calls: callsConfig, tts: ttsConfig });

async function waitFinal(a: ReturnType<typeof applianceDir>, id: string, app: RunningAppliance) {
  const end = Date.now() + 60_000;
  for (;;) {
    const c = a.cliJson(['calls', 'show', id]);
    if (isFinal(c.state)) return c;
    if (Date.now() > end) throw new Error(`call still ${c.state}: ${JSON.stringify(c.events)}\n${app.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function rig(o: { codec: 'PCMU' | 'PCMA'; register: boolean; transport: 'udp' | 'tcp'; qop?: boolean; password?: string }) {
  const phone = await startBaresip({ user: DIALED, codec: o.codec });
  stops.push(() => phone.stop());
  const pbx: Peer = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: o.register, qop: o.qop, user: USER, password: PASSWORD });
  stops.push(() => pbx.stop());
  const rtp = await freePort();
  const a = applianceDir({
    sip: {
      server: `127.0.0.1:${pbx.port}`,
      domain: '127.0.0.1',
      username: USER,
      password: o.register ? (o.password ?? PASSWORD) : '',
      register: o.register,
      dial_prefix: '0',
      transport: o.transport,
      local_address: '127.0.0.1',
      local_port: 0,
      rtp_ports: `${rtp}-${rtp + 40}`,
      t1_ms: 100,
    },
    calls: callsConfig,
    tts: ttsConfig,
  });
  const acc = provision(a);
  const app: RunningAppliance = await a.start();
  stops.push(() => app.stop());
  return { a, acc, app, phone, pbx };
}

describe('end to end through kamailio to baresip', () => {
  it.each([
    { codec: 'PCMU', register: true, transport: 'udp', qop: false },
    { codec: 'PCMA', register: false, transport: 'udp', qop: false },
    { codec: 'PCMA', register: true, transport: 'tcp', qop: true },
    { codec: 'PCMU', register: false, transport: 'tcp', qop: false },
  ] as const)('$codec, register=$register, $transport, qop=$qop: completed, recording frame-exact', async (c) => {
    const [expected, { a, acc, app, phone, pbx }] = await Promise.all([expectedAudio(), rig(c)]);
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: MESSAGE });
    expect(r.status).toBe(200);
    const call = await waitFinal(a, r.json.call_id, app);
    expect(call).toMatchObject({ state: 'completed', attempts: 1, last_sip_code: 200 });
    if (c.register) {
      expect(app.output()).toMatch(/sip registered/);
      // Digest on all three: REGISTER got a 401, INVITE and our BYE a 407.
      // (kamailio's log arrives through a pipe: give it a moment under load.)
      const logged = async (line: string) => {
        for (let i = 0; i < 50 && !pbx.output().includes(line); i++) await new Promise((r) => setTimeout(r, 100));
        return pbx.output();
      };
      for (const m of ['REGISTER', 'INVITE', 'BYE']) {
        expect(await logged(`challenging ${m} from ${USER}`)).toContain(`challenging ${m} from ${USER}`);
        // The digest we answered with: with qop=auth it carries nc and cnonce (RFC 2617 §3.2.2).
        const accepted = (await logged(`accepted ${m} credentials`)).split('\n').find((l) => l.includes(`accepted ${m} credentials`));
        expect(accepted).toMatch(/Digest .*username="/);
        if (c.qop) expect(accepted).toMatch(/qop=auth.*nc=0*1.*cnonce=|cnonce=.*nc=0*1/);
        else expect(accepted).not.toMatch(/qop=/);
      }
    }
    await phone.stop(); // sndfile closes its files on exit
    const dec = readdirSync(phone.recordDir).filter((f) => f.endsWith('-dec.wav'));
    expect(dec).toHaveLength(1);
    const pcm = readWav(readFileSync(join(phone.recordDir, dec[0]!)));
    expect(pcm.sampleRate).toBe(8000);
    // The recording starts with our silence (answer delay): its first sample is silence as decoded.
    const heard = loudFrames(pcm.samples, pcm.samples[0]!);
    const sent = c.codec === 'PCMU' ? loudFrames(expected.pcmu, 0xff) : loudFrames(expected.pcma, 0xd5);
    expect(sent.length).toBeGreaterThan(50);
    // Every non-silent frame of the message, exactly and in order, nothing else.
    expect(compareThroughDecoder(sent, heard)).toEqual([]);
  }, 120_000);

  it('a wrong trunk password is refused (403) and never retried', async () => {
    const { a, acc, app } = await rig({ codec: 'PCMU', register: true, transport: 'udp', password: 'wrong' });
    const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: MESSAGE });
    const call = await waitFinal(a, r.json.call_id, app);
    expect(call).toMatchObject({ state: 'rejected', attempts: 1, last_sip_code: 403 });
  }, 120_000);
});
