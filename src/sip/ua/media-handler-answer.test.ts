import { describe, expect, it } from 'vitest';
import type { RtpEngine, RtpStreamHandle } from '../rtp/engine';
import type { StreamMedia } from '../rtp/stream';
import { MediaHandler } from './media-handler';

/** An RTP engine that hands out port 10000 and records what the stream is started and updated with. */
function fakeEngine() {
  const started: StreamMedia[] = [];
  const updates: StreamMedia[] = [];
  const engine: RtpEngine = {
    take: async () => ({
      port: 10000,
      start: (s) => {
        started.push(s);
        return {
          codec: s.codec,
          play: async () => 'played',
          interrupt: () => undefined,
          hold: () => undefined,
          update: (m: StreamMedia) => updates.push(m),
          analysisKey: () => undefined,
        } satisfies RtpStreamHandle;
      },
      release: async () => undefined,
    }),
    close: async () => undefined,
    counts: () => ({ packetsSent: 0, lateTicks: 0 }),
  };
  return { engine, started, updates };
}

const phone = (o: { version: number; port: number; formats: string; extra?: string[] }) =>
  ['v=0', `o=- 7 ${o.version} IN IP4 192.0.2.9`, 's=-', 'c=IN IP4 192.0.2.9', 't=0 0', `m=audio ${o.port} RTP/AVP ${o.formats}`, ...(o.extra ?? []), 'a=sendrecv', ''].join('\r\n');

describe('the media handler answering an INVITE (voice desk, ua/answer-call.ts)', () => {
  it("answers the INVITE's offer in its own law and payload types, and sends where it says", async () => {
    const f = fakeEngine();
    const h = new MediaHandler(f.engine, '127.0.0.1');
    await h.setDescription(phone({ version: 1, port: 4000, formats: '8 0 96', extra: ['a=rtpmap:96 telephone-event/8000'] }));
    const answer = (await h.getDescription()).body;
    expect(answer).toMatch(/^m=audio 10000 RTP\/AVP 8 96$/m);
    expect(answer).toContain('a=rtpmap:96 telephone-event/8000');
    expect(h.remoteMedia()).toMatchObject({ address: '192.0.2.9', port: 4000, codec: 'PCMA', telephoneEventPt: 96 });
    h.startStream({ onDigit: () => undefined });
    expect(f.started[0]).toMatchObject({ remote: { address: '192.0.2.9', port: 4000 }, codec: 'PCMA', payloadType: 8, telephoneEventPts: [96] });
  });

  it('a later re-INVITE from the caller is answered and applied to the running stream', async () => {
    const f = fakeEngine();
    const h = new MediaHandler(f.engine, '127.0.0.1');
    await h.setDescription(phone({ version: 1, port: 4000, formats: '0' }));
    const first = (await h.getDescription()).body;
    h.startStream({ onDigit: () => undefined });
    await h.setDescription(phone({ version: 2, port: 4100, formats: '0' }));
    const second = (await h.getDescription()).body;
    expect(second.replace(/^o=.*$/m, '')).toBe(first.replace(/^o=.*$/m, ''));
    expect(f.updates.at(-1)).toMatchObject({ remote: { address: '192.0.2.9', port: 4100 } });
  });

  it('an offer without G.711 is refused (sip.js answers 488)', async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1');
    await expect(h.setDescription(phone({ version: 1, port: 4000, formats: '18' }))).rejects.toThrow(/SDP_NO_COMMON_CODEC/);
  });

  it('an INVITE without SDP: remoteKnown waits for the answer in the ACK, not for our offer in the 200', async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1');
    let known = false;
    void h.remoteKnown().then(() => (known = true));
    expect((await h.getDescription()).body).toMatch(/^m=audio 10000 RTP\/AVP/m); // our offer, in the 200
    await Promise.resolve();
    expect(known).toBe(false);
    await h.setDescription(phone({ version: 1, port: 4000, formats: '0' })); // the ACK's answer (sip.js setAnswer)
    await h.remoteKnown();
    expect(known).toBe(true);
    expect(h.remoteMedia()).toMatchObject({ port: 4000, codec: 'PCMU' });
  });

  it("an INVITE with an offer: remoteKnown has resolved once the offer is answered", async () => {
    const h = new MediaHandler(fakeEngine().engine, '127.0.0.1');
    await h.setDescription(phone({ version: 1, port: 4000, formats: '8' }));
    await h.getDescription();
    await h.remoteKnown();
    expect(h.remoteMedia()).toMatchObject({ codec: 'PCMA' });
  });
});
