import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeUlaw } from '../../src/g711';
import { readWav } from '../../src/tts/wav';
import { applianceDir, provision } from '../helpers/appliance';
import { callbackRig } from '../helpers/callback-rig';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { loudFrames } from '../helpers/recording';
import { startRtpPhone } from '../helpers/rtp-phone';
import { startSipp } from '../helpers/sipp';

/**
 * Contract "People", language per person, on the audio itself: a Turkish person and an English
 * person called for the same alert text each receive, frame for frame, what `voice-alert say`
 * renders for their language (intro, the message, the keypad prompt, the voice); the appliance
 * speaks Turkish by default (tts.voice tr). sipp answers (answer-to-port.xml) with its media at
 * a recorder of this test, which keeps every PCMU payload the appliance sends.
 */
const peerRig = callbackRig();
afterEach(() => peerRig.stopAll());

const TEXT = 'Disk full on db-01';
const AYSE = '5321111111';
const JOHN = '5322222222';

describe("a person's language, heard", () => {
  it('a Turkish and an English person hear the words and voice of their own language, as voice-alert say renders them', async () => {
    const rtpPort = await freePort();
    const phone = await startRtpPhone(rtpPort);
    try {
      const sipp = await startSipp({ scenario: 'answer-to-port.xml', calls: 2, fill: { rtp_port: rtpPort } });
      peerRig.keepPeer(sipp);
      const rtp = await freePort();
      const a = applianceDir({
        sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 40}`, t1_ms: 50 },
        calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 5, retry_delays_s: [30], max_attempts: 1, repeat: 1, per_number_gap_s: 0 },
        tts: { voice: 'tr', speed_wpm: 400 },
      });
      const acc = provision(a);
      a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', AYSE, '--language', 'tr']);
      a.cliJson(['person', 'create', acc.accountId, '--name', 'John', '--phone', JOHN, '--language', 'en']);
      a.cliJson(['policy', 'create', acc.accountId, '--name', 'tr', '--step', '+Ayşe:600', '--rounds', '1']);
      a.cliJson(['policy', 'create', acc.accountId, '--name', 'en', '--step', '+John:600', '--rounds', '1']);
      // What each language sounds like, rendered by the binary's own `say` with the same settings.
      const expected = (voice: string) => {
        const out = join(a.dir, `${voice}.wav`);
        const r = a.cli(['say', TEXT, '--voice', voice, '--out', out]);
        expect(r.status, r.stderr).toBe(0);
        return loudFrames(encodeUlaw(readWav(new Uint8Array(readFileSync(out))).samples), 0xff);
      };
      const [tr, en] = [expected('tr'), expected('en')];
      expect(tr.length).toBeGreaterThan(50);
      expect(en.length).toBeGreaterThan(50);

      const app = await peerRig.start(a);
      const alertOf = async (id: string) =>
        (await fetch(`${app.url}/api/alerts/${id}`, { headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret } }).then((r) => r.json())).alert;
      // One call at a time, so the recorder's frames are that call's.
      const heard = async (policy: string) => {
        phone.frames.length = 0;
        const r = await post(`${app.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, error_message: TEXT, policy });
        expect(r.status).toBe(200);
        await expect.poll(async () => (await alertOf(r.json.alert_id))?.calls?.[0]?.state, { timeout: 40_000, interval: 200 }).toBe('completed');
        const all = new Uint8Array(phone.frames.reduce((n, f) => n + f.length, 0));
        let at = 0;
        for (const f of phone.frames) all.set(f, (at += f.length) - f.length);
        return loudFrames(all, 0xff);
      };
      const ayse = await heard('tr');
      const john = await heard('en');
      // Frame for frame what `say` makes for each one's language, and not the other's.
      expect(ayse.length).toBe(tr.length);
      expect(ayse.every((f, i) => Buffer.from(f).equals(Buffer.from(tr[i]!)))).toBe(true);
      expect(john.length).toBe(en.length);
      expect(john.every((f, i) => Buffer.from(f).equals(Buffer.from(en[i]!)))).toBe(true);
      expect(Buffer.from(en[0]!).equals(Buffer.from(tr[0]!))).toBe(false);
      expect(await sipp.exited).toBe(0);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
