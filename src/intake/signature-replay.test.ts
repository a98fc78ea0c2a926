import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { intakeDeps, jsonRequest, manualClock, tempStore } from '../../test/helpers/memory-store';
import type { Store } from '../store';
import { acceptApiCall } from './accept-api-call';
import { acceptWebhook } from './accept-webhook';
import { createReplayMemory } from './signature-replay';

let store: Store;
const clock = manualClock('2026-11-15T12:00:00Z');
let cred: { apiKey: string; apiSecret: string; webhookKey: string };
beforeEach(() => {
  clock.set('2026-11-15T12:00:00Z');
  store = tempStore(clock);
  const acc = store.accounts.create({ name: 't', plan: 'enterprise', monthlyCredit: 100 });
  cred = store.credentials.create(acc.id);
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
    expect(store.calls.list({ limit: 10 })).toHaveLength(1);
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

  it('the memory forgets a signature once its timestamp is out of the window anyway', () => {
    const m = createReplayMemory();
    const t0 = Date.parse('2026-11-15T12:00:00Z');
    expect(m.firstUse('cred_1', 'sha256=aa', t0 / 1000, t0)).toBe(true);
    expect(m.firstUse('cred_1', 'sha256=AA', t0 / 1000, t0 + 299_000)).toBe(false);
    expect(m.firstUse('cred_2', 'sha256=aa', t0 / 1000, t0)).toBe(true); // another credential
    for (let i = 0; i < 2048; i++) m.firstUse('cred_3', `sha256=${i}`, t0 / 1000 + 400, t0 + 400_000);
    expect(m.size()).toBe(2048); // the first two swept after they expired
  });
});
