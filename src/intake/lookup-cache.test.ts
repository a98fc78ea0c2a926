import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createStore } from '../store';
import { OTHER_PROCESS_STALENESS_MS } from '../store/sql/sqlite/database';
import { createLookupCache } from './lookup-cache';

async function setup() {
  const clock = manualClock();
  const path = join(mkdtempSync(join(tmpdir(), 'va-lookup-')), 'voice-alert.db');
  const store = await createStore({ path, busyTimeoutMs: 1000, clock });
  const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const keys = await store.transaction((tx) => tx.credentials.create(account.id));
  return { clock, path, store, account, keys, cache: createLookupCache(store) };
}

describe('lookup cache', () => {
  it('answers repeated lookups without asking again, until the database changes', async () => {
    const { store, keys, cache } = await setup();
    const first = await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey);
    expect(first?.apiKey).toBe(keys.apiKey);
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).toBe(first); // the same object: not read again
    expect(await (await cache.fresh()).credentialByWebhookKey('vwk_unknown')).toBeNull();
    await store.transaction((tx) => tx.credentials.setRequireSignature(keys.apiKey, true));
    const after = await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey);
    expect(after).not.toBe(first);
    expect(after?.requireSignature).toBe(true);
  });

  it('forgets a key revoked through the same connection at once', async () => {
    const { store, keys, cache } = await setup();
    expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).not.toBeNull();
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).not.toBeNull();
    await store.transaction((tx) => tx.credentials.revoke(keys.apiKey));
    expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).toBeNull();
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).toBeNull();
  });

  it('forgets a key revoked by another connection (the CLI in another process) within OTHER_PROCESS_STALENESS_MS', async () => {
    const { clock, path, account, keys, cache } = await setup();
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).not.toBeNull();
    expect((await (await cache.fresh()).account(account.id))?.disabled).toBe(false);
    const other = await createStore({ path, busyTimeoutMs: 1000, clock });
    await other.transaction((tx) => tx.credentials.revoke(keys.apiKey));
    await other.transaction((tx) => tx.accounts.setDisabled(account.id, true));
    await other.close();
    await new Promise((r) => setTimeout(r, OTHER_PROCESS_STALENESS_MS + 10));
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).toBeNull();
    expect((await (await cache.fresh()).account(account.id))?.disabled).toBe(true);
  });

  it("moves the change marker at once for its own commits to the tables it keeps, for another process's within the staleness", async () => {
    const { clock, path, store, account } = await setup();
    const before = await store.changeMarker();
    await store.transaction((tx) => tx.accounts.setPlan(account.id, 'free'));
    const afterOwn = await store.changeMarker();
    expect(afterOwn).not.toBe(before); // the next request sees it
    const other = await createStore({ path, busyTimeoutMs: 1000, clock });
    await other.transaction((tx) => tx.accounts.setPlan(account.id, 'starter'));
    await other.close();
    const started = performance.now();
    let marker = await store.changeMarker();
    while (marker === afterOwn && performance.now() - started < 5 * OTHER_PROCESS_STALENESS_MS) {
      await new Promise((r) => setTimeout(r, 5));
      marker = await store.changeMarker();
    }
    expect(marker).not.toBe(afterOwn);
  });

  it('keeps its lookups across its own commits that write none of the tables it keeps', async () => {
    const { store, keys, cache } = await setup();
    const before = await store.changeMarker();
    const first = await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey);
    // What every accepted request commits besides its alert and calls: under load, a batch a few milliseconds.
    await store.transaction((tx) =>
      tx.history.record({ at: Date.now(), requestId: 'r1', endpoint: '/webhook/receive', sourceIp: '127.0.0.1', status: 200, message: 'queued', accountId: null, credentialId: null }),
    );
    // Past the staleness too: SQLite's data_version, read on our own writer, does not count its commits.
    await new Promise((r) => setTimeout(r, 2 * OTHER_PROCESS_STALENESS_MS));
    expect(await store.changeMarker()).toBe(before);
    expect(await (await cache.fresh()).credentialByWebhookKey(keys.webhookKey)).toBe(first); // not read again
  });

  it('does not keep past its COMMIT what a request read while a transaction revoked the key', async () => {
    const { store, keys, cache } = await setup();
    await store.transaction(async (tx) => {
      await tx.credentials.revoke(keys.apiKey);
      // A request meanwhile reads what was committed before: the key, still valid.
      expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).not.toBeNull();
    });
    expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).toBeNull();
  });

  it('sees a change committed by a transaction on the same store', async () => {
    const { store, account, cache } = await setup();
    expect((await (await cache.fresh()).account(account.id))?.plan).toBe('starter');
    await store.transaction((tx) => tx.accounts.setPlan(account.id, 'free'));
    expect((await (await cache.fresh()).account(account.id))?.plan).toBe('free');
  });

  it("keeps an account's maintenance windows not yet ended until the database changes, and reads a new one at once", async () => {
    const { clock, store, account, cache } = await setup();
    const now = clock();
    const window = (startsIn: number, endsIn: number, reason: string) =>
      store.transaction((tx) => tx.maintenance.create({ accountId: account.id, startsAt: now + startsIn, endsAt: now + endsIn, reason, matches: [] }, now));
    await window(-120_000, -60_000, 'over');
    const later = await window(60_000, 120_000, 'later');
    const first = await (await cache.fresh()).windowsOf(account.id, now);
    expect(first.map((w) => w.reason)).toEqual(['later']); // the ended one is not kept; one to come is
    expect(await (await cache.fresh()).windowsOf(account.id, now + 1000)).toBe(first); // not read again
    const current = await window(-1000, 60_000, 'now');
    expect((await (await cache.fresh()).windowsOf(account.id, now)).map((w) => w.reason)).toEqual(['now', 'later']);
    await store.transaction((tx) => tx.maintenance.delete(later.id));
    expect((await (await cache.fresh()).windowsOf(account.id, now)).map((w) => w.id)).toEqual([current.id]);
  });

  it('reads the windows again for an instant before the one they were read at (a clock set back)', async () => {
    const { clock, store, account, cache } = await setup();
    const now = clock();
    await store.transaction((tx) => tx.maintenance.create({ accountId: account.id, startsAt: now - 60_000, endsAt: now + 1000, reason: 'ends soon', matches: [] }, now));
    expect(await (await cache.fresh()).windowsOf(account.id, now + 5000)).toEqual([]);
    expect((await (await cache.fresh()).windowsOf(account.id, now)).map((w) => w.reason)).toEqual(['ends soon']);
  });
});

