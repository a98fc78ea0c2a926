import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createStore } from '../store';
import { createLookupCache } from './lookup-cache';

function setup() {
  const clock = manualClock();
  const path = join(mkdtempSync(join(tmpdir(), 'va-lookup-')), 'voice-alert.db');
  const store = createStore({ path, busyTimeoutMs: 1000, clock });
  const account = store.accounts.create({ name: 't', plan: 'starter' });
  const keys = store.credentials.create(account.id);
  return { clock, path, store, account, keys, cache: createLookupCache(store) };
}

describe('lookup cache', () => {
  it('answers repeated lookups without asking again, until the database changes', () => {
    const { store, keys, cache } = setup();
    const first = cache.fresh().credentialByWebhookKey(keys.webhookKey);
    expect(first?.apiKey).toBe(keys.apiKey);
    expect(cache.fresh().credentialByWebhookKey(keys.webhookKey)).toBe(first); // the same object: not read again
    expect(cache.fresh().credentialByWebhookKey('vwk_unknown')).toBeNull();
    store.credentials.setRequireSignature(keys.apiKey, true);
    const after = cache.fresh().credentialByWebhookKey(keys.webhookKey);
    expect(after).not.toBe(first);
    expect(after?.requireSignature).toBe(true);
  });

  it('forgets a key revoked through the same connection at once', () => {
    const { store, keys, cache } = setup();
    expect(cache.fresh().credentialByApiKey(keys.apiKey)).not.toBeNull();
    expect(cache.fresh().credentialByWebhookKey(keys.webhookKey)).not.toBeNull();
    store.credentials.revoke(keys.apiKey);
    expect(cache.fresh().credentialByApiKey(keys.apiKey)).toBeNull();
    expect(cache.fresh().credentialByWebhookKey(keys.webhookKey)).toBeNull();
  });

  it('forgets a key revoked by another connection (the CLI in another process) at once', async () => {
    const { clock, path, account, keys, cache } = setup();
    expect(cache.fresh().credentialByWebhookKey(keys.webhookKey)).not.toBeNull();
    expect(cache.fresh().account(account.id)?.disabled).toBe(false);
    const other = createStore({ path, busyTimeoutMs: 1000, clock });
    other.credentials.revoke(keys.apiKey);
    other.accounts.setDisabled(account.id, true);
    await other.close();
    expect(cache.fresh().credentialByWebhookKey(keys.webhookKey)).toBeNull();
    expect(cache.fresh().account(account.id)?.disabled).toBe(true);
  });

  it('sees a change committed by a group commit on the same connection', async () => {
    const { store, account, cache } = setup();
    expect(cache.fresh().account(account.id)?.plan).toBe('starter');
    await store.writes.run(() => store.accounts.setPlan(account.id, 'free'));
    expect(cache.fresh().account(account.id)?.plan).toBe('free');
  });
});
