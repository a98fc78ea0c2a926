import { afterEach, describe, expect, it } from 'vitest';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { header, testPhone, type TestPhone } from '../../test/helpers/test-phone';

let peers: SippPeer[] = [];
let phones: TestPhone[] = [];
afterEach(async () => {
  await Promise.all(phones.map((p) => p.phone.stop()));
  await Promise.all(peers.map((p) => p.stop()));
  peers = [];
  phones = [];
});

const start = async (scenario: string, extra: Record<string, unknown>, fill: Record<string, string> = {}) => {
  const sipp = await startSipp({ scenario, fill: { aor: 'trunk-user', ...fill } });
  peers.push(sipp);
  const p = await testPhone(sipp.port, { register: true, username: 'trunk-user', ...extra });
  phones.push(p);
  return { sipp, ...p };
};

describe('registration', () => {
  const registering = async (scenario: string, extra: Record<string, unknown>) => {
    const sipp = await startSipp({ scenario });
    peers.push(sipp);
    const p = await testPhone(sipp.port, { register: true, ...extra });
    phones.push(p);
    return { sipp, ...p };
  };

  it('answers the 401 with digest credentials and refreshes before the lifetime runs out', async () => {
    const { sipp, sent } = await registering('register.xml', { password: 'secret' });
    expect(await sipp.exited).toBe(0);
    expect(sent('REGISTER').length).toBeGreaterThanOrEqual(3); // first, with credentials, refresh
  });

  it('registers again with backoff after the registrar refused', async () => {
    const { sipp, sentAt } = await registering('register-retry.xml', {});
    expect(await sipp.exited).toBe(0);
    const sent = sentAt('REGISTER');
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(900); // the first backoff step is 1 s
  });
});

describe('registration outcomes (RFC 3261 §10.2)', () => {
  it('follows 423 Interval Too Brief with the Min-Expires lifetime and is registered', async () => {
    const { sipp, phone, sent } = await start('register-423.xml', { register_expires_s: 60 });
    expect(await sipp.exited).toBe(0); // it checked Expires: 3600 and ;expires=3600 on the retry
    expect(phone.registered()).toBe(true);
    expect(phone.registrationError()).toBeNull();
    expect(sent('REGISTER').map((m) => header(m, 'Expires'))).toEqual(['60', '3600']);
  });

  it('a registrar that answers 423 to its own Min-Expires ends as a reported 423 loop, not a hang', async () => {
    const { sipp, phone, sent } = await start('register-423-loop.xml', { register_expires_s: 60 });
    // start() resolved (we are here): the first attempt's outcome is known.
    expect(await sipp.exited).toBe(0);
    expect(phone.registered()).toBe(false);
    expect(phone.registrationError()).toBe('423 Interval Too Brief loop (Min-Expires 3600)');
    expect(sent('REGISTER')).toHaveLength(2);
  });

  it('the REGISTER address-of-record is sip.username even when sip.from_user differs', async () => {
    const { sipp, phone, sent } = await start('register-423.xml', { from_user: '02120000000' });
    expect(await sipp.exited).toBe(0); // it checked To: <sip:trunk-user@…>
    expect(phone.registered()).toBe(true);
    expect(header(sent('REGISTER')[0]!, 'From')).toMatch(/<sip:trunk-user@127\.0\.0\.1>;tag=/);
  });

  it('stops within its bound when the registrar never answers the un-REGISTER', async () => {
    // Production timers (T1 500 ms: Timer F would be 32 s): the bound, not the timer, ends it.
    const { phone, sent } = await start('register-silent-unregister.xml', { t1_ms: 500, t2_ms: 4000 }, { silent_ms: '8000' });
    expect(phone.registered()).toBe(true);
    const t0 = Date.now();
    await phone.stop();
    phones = [];
    expect(Date.now() - t0).toBeLessThan(5500);
    expect(sent('REGISTER').map((m) => header(m, 'Expires'))).toEqual(['600', '0']);
  });
});
