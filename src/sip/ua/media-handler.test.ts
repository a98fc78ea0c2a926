import { describe, expect, it } from 'vitest';
import type { RtpEngine, RtpStreamHandle } from '../rtp/engine';
import type { StreamMedia } from '../rtp/stream';
import { MediaHandler } from './media-handler';

/** An RTP engine that hands out port 10000 and records what the stream is told. */
function fakeEngine() {
  const updates: StreamMedia[] = [];
  const holds: boolean[] = [];
  const engine: RtpEngine = {
    take: async () => ({
      port: 10000,
      start: (s) =>
        ({
          codec: s.codec,
          play: async () => 'played',
          interrupt: () => undefined,
          hold: (h: boolean) => holds.push(h),
          update: (m: StreamMedia) => updates.push(m),
          analysisKey: () => undefined,
        }) satisfies RtpStreamHandle,
      release: async () => undefined,
    }),
    close: async () => undefined,
    counts: () => ({ packetsSent: 0, lateTicks: 0 }),
  };
  return { engine, updates, holds };
}

const pbx = (o: { version: number; port: number; formats: string; extra?: string[] }) =>
  ['v=0', `o=- 42 ${o.version} IN IP4 192.0.2.1`, 's=Asterisk', 'c=IN IP4 192.0.2.1', 't=0 0', `m=audio ${o.port} RTP/AVP ${o.formats}`, ...(o.extra ?? []), 'a=sendrecv', ''].join('\r\n');
const version = (sdp: string) => /^o=\S+ \S+ (\d+) /m.exec(sdp)![1];
const mLine = (sdp: string) => /^m=.*$/m.exec(sdp)![0];

/** A handler past the 200 OK: our INVITE offered, the PBX answered PCMU at port 4000, stream up. */
async function answered() {
  const f = fakeEngine();
  const h = new MediaHandler(f.engine, '127.0.0.1');
  const invite = (await h.getDescription()).body;
  await h.setDescription(pbx({ version: 1, port: 4000, formats: '0 101', extra: ['a=rtpmap:101 telephone-event/8000'] }));
  h.confirm();
  h.startStream({ onDigit: () => undefined });
  return { h, invite, ...f };
}

describe('media handler: offer/answer after the call is up (RFC 3264 §8)', () => {
  it('answers a new offer with only what it holds, raises o= version, and applies it to the stream', async () => {
    const { h, invite, updates } = await answered();
    expect(version(invite)).toBe('1');
    await h.setDescription(pbx({ version: 2, port: 5000, formats: '8 96', extra: ['a=rtpmap:8 PCMA/8000', 'a=rtpmap:96 telephone-event/8000'] }));
    const reply = (await h.getDescription()).body;
    expect(mLine(reply)).toBe('m=audio 10000 RTP/AVP 8 96');
    expect(version(reply)).toBe('2');
    expect(updates).toEqual([{ remote: { address: '192.0.2.1', port: 5000 }, codec: 'PCMA', payloadType: 8, telephoneEventPts: [96] }]);
    // The same offer again: the same answer, version and all.
    await h.setDescription(pbx({ version: 2, port: 5000, formats: '8 96', extra: ['a=rtpmap:8 PCMA/8000', 'a=rtpmap:96 telephone-event/8000'] }));
    expect((await h.getDescription()).body).toBe(reply);
  });

  it('refuses an offer without G.711 (sip.js answers 488) and is ready for the next one', async () => {
    const { h, updates } = await answered();
    await expect(h.setDescription(pbx({ version: 2, port: 5000, formats: '18', extra: ['a=rtpmap:18 G729/8000'] }))).rejects.toThrow(/SDP_NO_COMMON_CODEC/);
    await h.rollbackDescription();
    expect(updates).toEqual([]);
    await h.setDescription(pbx({ version: 3, port: 6000, formats: '0' }));
    expect(mLine((await h.getDescription()).body)).toBe('m=audio 10000 RTP/AVP 0');
  });

  it('offers everything to a re-INVITE without SDP and applies the answer that comes in the ACK', async () => {
    const { h, invite, updates } = await answered();
    const ours = (await h.getDescription()).body;
    expect(ours).toBe(invite); // the same full offer as the INVITE's: the body did not change, nor did its version
    expect(await h.answerUpdate(pbx({ version: 2, port: 1, formats: '0' }))).toBe('ours-pending'); // RFC 3311 §5.2: 491
    await h.setDescription(pbx({ version: 2, port: 7000, formats: '8', extra: ['a=sendonly'] }));
    expect(updates.at(-1)).toMatchObject({ remote: { port: 7000 }, codec: 'PCMA' });
  });

  it('a session refresh repeats the last SDP we sent, unchanged', async () => {
    const { h } = await answered();
    await h.setDescription(pbx({ version: 2, port: 5000, formats: '8' }));
    const answer = (await h.getDescription()).body;
    h.repeatLastOffer();
    expect((await h.getDescription()).body).toBe(answer);
  });

  it('stops sending while held (their offer sendonly) and sends again when it is over', async () => {
    const { h, holds } = await answered();
    await h.setDescription(pbx({ version: 2, port: 4000, formats: '0' }).replace('a=sendrecv', 'a=sendonly'));
    expect((await h.getDescription()).body).toMatch(/^a=recvonly$/m);
    await h.setDescription(pbx({ version: 3, port: 4000, formats: '0' }));
    await h.getDescription();
    expect(holds).toEqual([false, true, false]); // at start, on hold, resumed
  });
});
