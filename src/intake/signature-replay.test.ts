import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { intakeDeps, jsonRequest, manualClock, tempStore } from '../../test/helpers/memory-store';
import { DatabaseUnavailableError, type Store } from '../store';
import { acceptApiCall } from './accept-api-call';
import { acceptWebhook } from './accept-webhook';

let store: Store;
const clock = manualClock('2026-11-15T12:00:00Z');
let cred: { apiKey: string; apiSecret: string; webhookKey: string };
beforeEach(async () => {
  clock.set('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'enterprise', monthlyCredit: 100 }));
  cred = await store.transaction((tx) => tx.credentials.create(acc.id));
});
afterEach(() => store.close());

const now = () => Math.floor(clock() / 1000);
const hookBody = { phone_number: '5321234567', error_message: 'disk full' };

describe('signed request replay (issue 10 §6)', () => {
  it('the same signed webhook sent again is 403 invalid_signature with reason replayed, and charges once', async () => {
    const req = () => jsonRequest(hookBody, { webhookKey: cred.webhookKey, signWith: cred.webhookKey, timestamp: now() });
    const deps = intakeDeps(store, clock);
    expect((await acceptWebhook(deps, req())).outcome.code).toBe('QUEUED');
    clock.advance(5_000); // same timestamp header, still inside ±300 s
    const ts = now() - 5;
    const again = jsonRequest(hookBody, { webhookKey: cred.webhookKey, signWith: cred.webhookKey, timestamp: ts });
    for (let i = 0; i < 2; i++) expect((await acceptWebhook(deps, again)).outcome).toEqual({ code: 'invalid_signature', reason: 'replayed' });
    expect(await store.calls.list({ limit: 10 })).toHaveLength(1);
  });

  it('/api/call too; a new timestamp (a new signature) is a new request', async () => {
    const deps = intakeDeps(store, clock);
    const body = { api_key: cred.apiKey, phone_number: '5321234567', error_message: 'x' };
    const signed = jsonRequest(body, { signWith: cred.apiSecret, timestamp: now() });
    expect((await acceptApiCall(deps, signed)).outcome.code).toBe('QUEUED');
    expect((await acceptApiCall(deps, signed)).outcome).toEqual({ code: 'invalid_signature', reason: 'replayed' });
    clock.advance(1_000);
    expect((await acceptApiCall(deps, jsonRequest(body, { signWith: cred.apiSecret, timestamp: now() }))).outcome.code).toBe('QUEUED');
  });

  it('a retried delivery with the same Idempotency-Key still gets its first answer', async () => {
    const deps = intakeDeps(store, clock);
    const req = jsonRequest(hookBody, { webhookKey: cred.webhookKey, signWith: cred.webhookKey, timestamp: now(), idempotencyKey: 'evt-1' });
    const first = await acceptWebhook(deps, req);
    const again = await acceptWebhook(deps, req);
    expect(again.replayed).toBe(true);
    expect(again.outcome).toEqual(first.outcome);
  });

  it('a timestamp more than 30 s ahead is refused; 30 s ahead is accepted', async () => {
    const deps = intakeDeps(store, clock);
    const at = (ts: number) => acceptWebhook(deps, jsonRequest(hookBody, { webhookKey: cred.webhookKey, signWith: cred.webhookKey, timestamp: ts }));
    expect((await at(now() + 31)).outcome.code).toBe('invalid_signature');
    expect((await at(now() + 30)).outcome.code).toBe('QUEUED');
  });

  it('a request the database could not take (503) leaves no memory: the same bytes sent again are taken', async () => {
    const deps = intakeDeps(store, clock);
    const req = jsonRequest(hookBody, { webhookKey: cred.webhookKey, signWith: cred.webhookKey, timestamp: now() });
    const transaction = store.transaction;
    store.transaction = () => Promise.reject(new DatabaseUnavailableError('frozen'));
    await expect(acceptWebhook(deps, req)).rejects.toThrow(DatabaseUnavailableError);
    store.transaction = transaction;
    expect((await acceptWebhook(deps, req)).outcome.code).toBe('QUEUED');
    expect((await acceptWebhook(deps, req)).outcome).toEqual({ code: 'invalid_signature', reason: 'replayed' });
  });

  it('the memory forgets a signature once its timestamp is out of the window anyway, and is pruned then', async () => {
    const t0 = clock();
    const expiresAt = t0 + 301_000;
    const firstUse = (credentialId: string, signature: string, at: number, until = expiresAt) =>
      store.transaction((tx) => tx.signedRequests.firstUse(credentialId, signature, until, at));
    expect(await firstUse('cred_1', 'sha256=aa', t0)).toBe(true);
    expect(await firstUse('cred_1', 'sha256=AA', t0 + 299_000)).toBe(false);
    expect(await firstUse('cred_2', 'sha256=aa', t0)).toBe(true); // another credential
    // Past its expiry the old entry no longer refuses (its timestamp would be refused anyway).
    expect(await firstUse('cred_1', 'sha256=aa', expiresAt + 1, expiresAt + 400_000)).toBe(true);
    expect(await store.transaction((tx) => tx.signedRequests.prune(expiresAt + 1))).toBe(1); // cred_2's
  });
});
