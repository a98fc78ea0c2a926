import { describe, expect, it } from 'vitest';
import { configSchema } from '../config';
import { silentLogger } from '../log';
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
  it('says not_configured without sip.server', () => {
    const config = configSchema.parse({});
    const t = createTelephony(config, { store: tempStore(Date.now), clock: Date.now, log: silentLogger(), audio });
    expect(t.status()).toEqual({ state: 'not_configured', registered: null, lastError: null, ...noProbe() });
  });

  it('goes starting -> up -> stopped; an IP trunk reports no registration', async () => {
    const [pbx, rtp] = [await freePort(), await freePort()];
    const config = configSchema.parse({
      sip: { server: `127.0.0.1:${pbx}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 10}` },
    });
    const t = createTelephony(config, { store: tempStore(Date.now), clock: Date.now, log: silentLogger(), audio });
    expect(t.status().state).toBe('starting');
    t.start();
    await expect.poll(() => t.status().state, { timeout: 5000 }).toBe('up');
    expect(t.status()).toMatchObject({ state: 'up', registered: null, lastError: null });
    await t.stop();
    expect(t.status().state).toBe('stopped');
  });
});
