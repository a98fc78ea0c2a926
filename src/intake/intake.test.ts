import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { intakeDeps, jsonRequest, manualClock, tempStore } from '../../test/helpers/memory-store';
import type { Store } from '../store';
import { acceptApiCall, acceptWebhook } from '.';

let clock: ReturnType<typeof manualClock>;
let store: Store;
let cred: { apiKey: string; apiSecret: string; webhookKey: string; accountId: string };

async function setup(plan: 'free' | 'starter' | 'professional' | 'enterprise' = 'starter', monthlyCredit?: number) {
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan, monthlyCredit }));
  const k = await store.transaction((tx) => tx.credentials.create(account.id));
  cred = { apiKey: k.apiKey, apiSecret: k.apiSecret, webhookKey: k.webhookKey, accountId: account.id };
}

const api = (fields: Record<string, unknown>, opts = {}) =>
  acceptApiCall(intakeDeps(store, clock), jsonRequest(fields, opts));
const hook = (fields: unknown, opts: Parameters<typeof jsonRequest>[1] = {}) =>
  acceptWebhook(intakeDeps(store, clock), jsonRequest(fields, { webhookKey: cred.webhookKey, ...opts }));
const call = (n = '5321234567') => ({
  api_key: cred.apiKey,
  api_secret: cred.apiSecret,
  phone_number: n,
  error_message: 'Disk dolu',
});
const used = () => store.usage.usedIn(cred.accountId, '2026-11');
const queuedCount = async () => (await store.calls.list({ accountId: cred.accountId, limit: 1000 })).length;

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  await setup();
});
afterEach(() => store.close());

describe('credit', () => {
  it('the 15th Starter call succeeds and the 16th gets insufficient_credit', async () => {
    for (let i = 0; i < 14; i++) expect((await api(call())).outcome.code).toBe('QUEUED');
    expect((await api(call())).outcome.code).toBe('QUEUED');
    expect((await api(call())).outcome.code).toBe('insufficient_credit');
    expect(await used()).toBe(15);
    expect(await queuedCount()).toBe(15);
  });

  it('a 10-number webhook with 9 credits left queues and charges nothing', async () => {
    expect((await api(call())).outcome.code).toBe('QUEUED');
    for (let i = 0; i < 5; i++) await api(call());
    expect(await used()).toBe(6); // 15 - 6 = 9 left
    const numbers = Array.from({ length: 10 }, (_, i) => `532123450${i}`);
    const r = await hook({ phone_number: numbers.join(','), error_message: 'x' });
    expect(r.outcome.code).toBe('insufficient_credit');
    expect(await used()).toBe(6);
    expect(await queuedCount()).toBe(6);
  });

  it('20 concurrent requests for the last 3 credits queue exactly 3', async () => {
    for (let i = 0; i < 12; i++) await api(call());
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? api(call()) : hook({ phone_number: '5321234567', error_message: 'x' }))),
    );
    expect(results.filter((r) => r.outcome.code === 'QUEUED')).toHaveLength(3);
    expect(results.filter((r) => r.outcome.code === 'insufficient_credit')).toHaveLength(17);
    expect(await used()).toBe(15);
    expect(await queuedCount()).toBe(15);
  });

  it('resets at 00:00 on the 1st in Europe/Istanbul, not at UTC midnight', async () => {
    clock.set('2026-11-30T20:00:00Z'); // 23:00 in Istanbul (UTC+3)
    for (let i = 0; i < 15; i++) await api(call());
    expect((await api(call())).outcome.code).toBe('insufficient_credit');
    clock.set('2026-11-30T20:59:59Z'); // 23:59:59 Istanbul: still November
    expect((await api(call())).outcome.code).toBe('insufficient_credit');
    clock.set('2026-11-30T21:00:00Z'); // 00:00 on 1 December in Istanbul, 21:00 UTC
    expect((await api(call())).outcome.code).toBe('QUEUED');
    expect(await store.usage.usedIn(cred.accountId, '2026-12')).toBe(1);
  });

  it('an account override replaces the plan amount', async () => {
    await setup('enterprise', 2);
    await api(call());
    await api(call());
    expect((await api(call())).outcome.code).toBe('insufficient_credit');
  });
});

describe('plan and account', () => {
  it('refuses a Free plan and a disabled account on both endpoints', async () => {
    await setup('free');
    expect((await api(call())).outcome.code).toBe('plan_refused');
    expect((await hook({ phone_number: '5321234567', error_message: 'x' })).outcome.code).toBe('plan_refused');
    await setup('starter');
    await store.transaction((tx) => tx.accounts.setDisabled(cred.accountId, true));
    expect((await api(call())).outcome.code).toBe('plan_refused');
  });

  it('a revoked credential set is refused on both endpoints', async () => {
    await store.transaction((tx) => tx.credentials.revoke(cred.apiKey));
    expect((await api(call())).outcome.code).toBe('invalid_api_credentials');
    expect((await hook({ phone_number: '5321234567', error_message: 'x' })).outcome.code).toBe('invalid_webhook_key');
  });
});

describe('HMAC signing', () => {
  const now = () => Math.floor(clock() / 1000);
  const withoutSecret = () => {
    const { api_secret: _secret, ...body } = call();
    return body;
  };

  it('accepts a valid signature on /api/call without api_secret', async () => {
    const r = await api(withoutSecret(), { signWith: cred.apiSecret, timestamp: now() });
    expect(r.outcome.code).toBe('QUEUED');
  });

  it('an unsigned request without api_secret is missing a field', async () => {
    expect((await api(withoutSecret())).outcome.code).toBe('missing_fields');
  });

  it('a signed request with a wrong api_secret is refused as bad credentials', async () => {
    const r = await api({ ...call(), api_secret: 'vas_wrong' }, { signWith: cred.apiSecret, timestamp: now() });
    expect(r.outcome.code).toBe('invalid_api_credentials');
  });

  it('refuses a wrong signature, and one outside ±300 s', async () => {
    const body = withoutSecret();
    expect((await api(body, { signWith: 'vas_wrong', timestamp: now() })).outcome.code).toBe('invalid_signature');
    expect((await api(body, { signWith: cred.apiSecret, timestamp: now() - 301 })).outcome.code).toBe('invalid_signature');
    expect((await api(body, { signWith: cred.apiSecret, timestamp: now() + 301 })).outcome.code).toBe('invalid_signature');
    expect((await api(body, { signWith: cred.apiSecret, timestamp: now() - 300 })).outcome.code).toBe('QUEUED');
  });

  it('webhook signatures use the webhook key', async () => {
    const body = { phone_number: '5321234567', error_message: 'x' };
    expect((await hook(body, { signWith: cred.webhookKey, timestamp: now() })).outcome.code).toBe('QUEUED');
    expect((await hook(body, { signWith: cred.apiSecret, timestamp: now() })).outcome.code).toBe('invalid_signature');
  });

  it('a set marked "signature required" refuses unsigned requests', async () => {
    await store.transaction((tx) => tx.credentials.setRequireSignature(cred.apiKey, true));
    expect((await api(call())).outcome.code).toBe('signature_required');
    expect((await hook({ phone_number: '5321234567', error_message: 'x' })).outcome.code).toBe('signature_required');
    expect((await api(call(), { signWith: cred.apiSecret, timestamp: now() })).outcome.code).toBe('QUEUED');
  });
});

describe('idempotent replay', () => {
  it('a repeated Idempotency-Key replays the first answer and queues nothing new', async () => {
    const body = { phone_number: '5321234567,5321234568', error_message: 'x' };
    const first = await hook(body, { idempotencyKey: 'evt-1' });
    const again = await hook(body, { idempotencyKey: 'evt-1' });
    expect(first.outcome.code).toBe('QUEUED');
    expect(again.replayed).toBe(true);
    expect(again.outcome).toEqual(first.outcome);
    expect(await used()).toBe(2);
    expect(await queuedCount()).toBe(2);
  });

  it('copies racing in one batch queue once', async () => {
    const rs = await Promise.all([1, 2, 3].map(() => api(call(), { idempotencyKey: 'k' })));
    expect(rs.filter((r) => r.replayed)).toHaveLength(2);
    expect(await queuedCount()).toBe(1);
  });

  it('after 24 h the key starts afresh; other credentials do not share it', async () => {
    await api(call(), { idempotencyKey: 'k' });
    clock.advance(24 * 3600 * 1000 + 1);
    expect((await api(call(), { idempotencyKey: 'k' })).replayed).toBe(false);
    const other = await store.transaction((tx) => tx.credentials.create(cred.accountId));
    const r = await api({ ...call(), api_key: other.apiKey, api_secret: other.apiSecret }, { idempotencyKey: 'k' });
    expect(r.replayed).toBe(false);
    expect(await queuedCount()).toBe(3);
  });
});
