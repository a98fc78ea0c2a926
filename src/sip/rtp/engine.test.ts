import { createSocket, type Socket } from 'node:dgram';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../log';
import { freePort } from '../../../test/helpers/ports';
import { createRtpEngine, type RtpEngine, type RtpPort } from './engine';
import { decodeRtp, encodeRtp } from './packet';

let engines: RtpEngine[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  for (const s of sockets) s.close();
  engines = [];
  sockets = [];
});

const fixture = (name: string) => new URL(`../../../test/fixtures/rtp/${name}`, import.meta.url).href;

async function engineOnFreePorts(workerUrl?: string, log = silentLogger()) {
  const low = await freePort();
  const engine = createRtpEngine({ address: '127.0.0.1', low, high: low + 6, log, workerUrl });
  engines.push(engine);
  return engine;
}

async function receiver() {
  const rx = createSocket('udp4');
  sockets.push(rx);
  await new Promise<void>((r) => rx.bind(0, '127.0.0.1', () => r()));
  const got: NonNullable<ReturnType<typeof decodeRtp>>[] = [];
  rx.on('message', (m) => got.push(decodeRtp(m)!));
  return { rx, got, port: rx.address().port };
}

describe('RTP engine (media in a worker thread)', () => {
  it('takes a port, streams audio from it with RFC 3550 headers and reports each send time', async () => {
    const engine = await engineOnFreePorts();
    const taken = await engine.take();
    if (!('port' in taken)) throw new Error(taken.code);
    const { got, port } = await receiver();
    const sentAt: number[] = [];
    const stream = taken.start({
      remote: { address: '127.0.0.1', port },
      codec: 'PCMA',
      payloadType: 8,
      telephoneEventPts: [],
      onDigit: () => undefined,
      onPacketSent: (at) => sentAt.push(at),
    });
    const before = performance.now();
    expect(await stream.play(new Uint8Array(160 * 5).fill(0x42), 'PCMA')).toBe('played');
    await taken.release(); // resolves after the last send-time report
    // Every packet reported sent also arrives (loopback): wait for the last ones' flight.
    await expect.poll(() => got.length).toBe(sentAt.length);
    const audio = got.filter((p) => p.payload.every((b) => b === 0x42));
    expect(audio).toHaveLength(5);
    expect(got[0]!.payloadType).toBe(8);
    expect(got[0]!.marker).toBe(true);
    for (let i = 1; i < got.length; i++) expect(got[i]!.sequence).toBe((got[i - 1]!.sequence + 1) & 0xffff);
    // Times come back on this thread's clock, although the worker's clock has another origin.
    expect(sentAt[0]!).toBeGreaterThan(before - 25);
    expect(sentAt.at(-1)!).toBeLessThan(performance.now());
    // /metrics reads the worker's count without a message: every packet it sent.
    expect(engine.counts().packetsSent).toBe(sentAt.length);
  });

  it('reports a keypad event (RFC 4733) that arrives on the stream port', async () => {
    const engine = await engineOnFreePorts();
    const taken = await engine.take();
    if (!('port' in taken)) throw new Error(taken.code);
    const { rx, got, port } = await receiver();
    const digits: string[] = [];
    taken.start({ remote: { address: '127.0.0.1', port }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [96], onDigit: (d) => digits.push(d) });
    await expect.poll(() => got.length).toBeGreaterThan(0); // the worker runs the stream now
    const event = encodeRtp({ payloadType: 96, marker: true, sequence: 1, timestamp: 800, ssrc: 7 }, new Uint8Array([1, 0x0a, 0, 160]));
    rx.send(event, taken.port, '127.0.0.1');
    await expect.poll(() => digits, { timeout: 2000 }).toEqual(['1']);
  });

  it('gives a released port out again and runs out when all are held', async () => {
    const engine = await engineOnFreePorts(); // 4 even ports
    const held: RtpPort[] = [];
    for (let i = 0; i < 4; i++) {
      const t = await engine.take();
      if ('port' in t) held.push(t);
    }
    expect(held).toHaveLength(4);
    expect(await engine.take()).toEqual({ code: 'RTP_PORTS_EXHAUSTED' });
    await held[0]!.release();
    expect(await engine.take()).toMatchObject({ port: held[0]!.port });
  });

  it('a dead worker fails the call playing on it and the next call gets a fresh worker', async () => {
    const engine = await engineOnFreePorts(fixture('dies-on-start.ts'));
    const taken = await engine.take();
    if (!('port' in taken)) throw new Error(taken.code);
    const stream = taken.start({ remote: { address: '127.0.0.1', port: 9 }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined });
    expect(await stream.play(new Uint8Array(160), 'PCMU')).toBe('failed'); // sent while the worker died
    expect(await engine.take()).toMatchObject({ port: 40000 }); // answered by a new worker
  });

  it('a port from a worker that died before the answer: its stream fails, and releasing it leaves the new worker alone', async () => {
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
    const engine = await engineOnFreePorts(fixture('dies-on-start.ts'), log);
    const first = await engine.take();
    if (!('port' in first)) throw new Error(first.code);
    first.start({ remote: { address: '127.0.0.1', port: 9 }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined });
    await expect.poll(() => errors.some((l) => JSON.parse(l).msg.startsWith('rtp worker died'))).toBe(true);
    const next = await engine.take(); // a new worker, which hands out the same port number
    if (!('port' in next)) throw new Error(next.code);
    expect(next.port).toBe(first.port);
    const late = first.start({ remote: { address: '127.0.0.1', port: 9 }, codec: 'PCMU', payloadType: 0, telephoneEventPts: [], onDigit: () => undefined });
    expect(await late.play(new Uint8Array(160), 'PCMU')).toBe('failed');
    await first.release(); // must not release the new call's port
    await next.release(); // this one does reach the new worker: proof the channel works
    const releasesSeen = () => errors.filter((l) => JSON.parse(l).error === 'release of 40000 reached this worker').length;
    await expect.poll(releasesSeen).toBe(1);
  });
});
