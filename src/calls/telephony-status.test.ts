import { withEngine } from '../../test/helpers/engine';
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config';
import { createLogger, silentLogger } from '../log';
import { startSipp } from '../../test/helpers/sipp';
import { tempStore } from '../../test/helpers/memory-store';
import { freePort } from '../../test/helpers/ports';
import { createTelephony, noProbe } from '.';
import type { CallAudioSource } from '../call-model';

const audio: CallAudioSource = {
  forMessage: async () => ({ pcmu: new Uint8Array(160).fill(0xff), pcma: new Uint8Array(160).fill(0xd5), durationMs: 20 }),
  acknowledged: async () => ({ pcmu: new Uint8Array(160).fill(0xff), pcma: new Uint8Array(160).fill(0xd5), durationMs: 20 }),
  forBundle: async () => ({ pcmu: new Uint8Array(160).fill(0xff), pcma: new Uint8Array(160).fill(0xd5), durationMs: 20 }),
};

describe('trunk status (shown on the panel settings page)', () => {
  it('says not_configured without sip.server', async () => {
    const config = configSchema.parse({});
    const t = withEngine(createTelephony(config, { store: await tempStore(Date.now), clock: Date.now, log: silentLogger(), audio }));
    expect(t.status()).toEqual({ state: 'not_configured', registered: null, lastError: null, ...noProbe() });
  });

  it('goes starting -> up -> stopped; an IP trunk reports no registration', async () => {
    const [pbx, rtp] = [await freePort(), await freePort()];
    const config = configSchema.parse({
      sip: { server: `127.0.0.1:${pbx}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}` },
    });
    const t = withEngine(createTelephony(config, { store: await tempStore(Date.now), clock: Date.now, log: silentLogger(), audio }));
    expect(t.status().state).toBe('starting');
    t.start();
    await expect.poll(() => t.status().state, { timeout: 5000 }).toBe('up');
    expect(t.status()).toMatchObject({ state: 'up', registered: null, lastError: null });
    await t.stop();
    expect(t.status().state).toBe('stopped');
  });

  it('shows a registrar refusal (423 loop) while it lasts, and stops within its bound', async () => {
    const sipp = await startSipp({ scenario: 'register-423-loop.xml' });
    const rtp = await freePort();
    const config = configSchema.parse({
      sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, register: true, register_expires_s: 60 },
    });
    const t = withEngine(createTelephony(config, { store: await tempStore(Date.now), clock: Date.now, log: silentLogger(), audio }));
    t.start();
    await expect.poll(() => t.status().state, { timeout: 5000 }).toBe('up');
    expect(t.status()).toMatchObject({ state: 'up', registered: false, lastError: '423 Interval Too Brief loop (Min-Expires 3600)' });
    expect(await sipp.exited).toBe(0);
    const t0 = Date.now();
    await t.stop();
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a registrar that never answers: 408 in the status, logged once however often it is retried', async () => {
    // A registrar that reads and never answers: it counts the REGISTERs (CSeq) it was sent.
    const registrar = createSocket('udp4');
    const cseqs = new Set<string>();
    registrar.on('message', (m) => cseqs.add(/^CSeq: *(\d+)/im.exec(m.toString())?.[1] ?? ''));
    await new Promise<void>((r) => registrar.bind(0, '127.0.0.1', r));
    const silent = registrar.address().port;
    const rtp = await freePort();
    const lines: string[] = [];
    const log = createLogger('info', { write: (l: string) => void lines.push(l) });
    const config = configSchema.parse({
      sip: { server: `127.0.0.1:${silent}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, register: true, t1_ms: 20, t2_ms: 100 },
    });
    const t = withEngine(createTelephony(config, { store: await tempStore(Date.now), clock: Date.now, log, audio }));
    t.start();
    await expect.poll(() => t.status().state, { timeout: 5000 }).toBe('up');
    expect(t.status()).toMatchObject({ state: 'up', registered: false, lastError: '408 Request Timeout' });
    // The second attempt (after the 1 s backoff) fails the same way: no second log line.
    await expect.poll(() => cseqs.size, { timeout: 3000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 1500)); // its Timer F (64·T1 = 1.28 s) has run out
    expect(t.status().lastError).toBe('408 Request Timeout');
    expect(lines.filter((l) => l.includes('sip registration failed'))).toHaveLength(1);
    await t.stop();
    registrar.close();
  });

  it('a silent registrar (production Timer F, 32 s) holds neither start nor stop', async () => {
    const registrar = createSocket('udp4');
    await new Promise<void>((r) => registrar.bind(0, '127.0.0.1', r));
    const rtp = await freePort();
    const config = configSchema.parse({
      sip: { server: `127.0.0.1:${registrar.address().port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}`, register: true },
    });
    const t = withEngine(createTelephony(config, { store: await tempStore(Date.now), clock: Date.now, log: silentLogger(), audio }));
    const t0 = Date.now();
    t.start();
    await expect.poll(() => t.status().state, { timeout: 6000 }).toBe('up');
    expect(Date.now() - t0).toBeLessThan(5500);
    expect(t.status()).toMatchObject({ state: 'up', registered: false, lastError: null }); // no outcome yet
    const t1 = Date.now();
    await t.stop();
    expect(Date.now() - t1).toBeLessThan(4500);
    registrar.close();
  });
});
