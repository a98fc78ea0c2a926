/**
 * PBX behaviours of issue 11 (items 5, 6, 7, 9), each against a sipp scenario that sends
 * what the real PBX sends; asserting on the wire and on the reported outcome.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { dialTest, header, recorder, testPhone, type TestPhone } from './test-phone';

let peers: SippPeer[] = [];
let phones: TestPhone[] = [];
afterEach(async () => {
  await Promise.all(phones.map((p) => p.phone.stop()));
  await Promise.all(peers.map((p) => p.stop()));
  peers = [];
  phones = [];
});

async function against(scenario: string, extra: Record<string, unknown> = {}, sipp: Parameters<typeof startSipp>[0] | object = {}) {
  const peer = await startSipp({ scenario, ...sipp });
  peers.push(peer);
  const p = await testPhone(peer.port, extra);
  phones.push(p);
  return { peer, ...p };
}

describe('digest for two realms (RFC 3261 §22.3)', () => {
  it('answers a 401 (PBX realm) and then a 407 (proxy realm) with both credentials', async () => {
    const { peer, phone, sent } = await against('auth-401-407.xml', { password: 'secret' });
    const { progress } = recorder();
    expect(await dialTest(phone, progress)).toMatchObject({ code: 'COMPLETED', status: 200 });
    expect(await peer.exited).toBe(0); // it verified the digest for realm pbx and saw realm proxy
    const invites = sent('INVITE');
    expect(invites).toHaveLength(3);
    expect(header(invites[2]!, 'Authorization')).toContain('realm="pbx"');
    expect(header(invites[2]!, 'Proxy-Authorization')).toContain('realm="proxy"');
  });
});
