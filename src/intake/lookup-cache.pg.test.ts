import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createStore, type Store } from '../store';
import { CROSS_NODE_STALENESS_MS } from '../store/sql/postgres/database';
import { createLookupCache } from './lookup-cache';

// Two appliances on one PostgreSQL (docs/high-availability.md): what one's lookups keep
// and another changes. Runs in the vitest project "postgres" only.

const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function twoAppliances() {
  const url = testStoreUrl()!;
  const keyFile = join(mkdtempSync(join(tmpdir(), 'va-key-')), 'secret.key');
  const a = await createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile, busyTimeoutMs: 5000, clock: Date.now });
  const b = await createStore({ path: join(tmpdir(), 'unused.db'), url, keyFile, busyTimeoutMs: 5000, clock: Date.now });
  open.push(a, b);
  return { a, b };
}

describe('lookup cache on PostgreSQL', () => {
  it('does not keep past its COMMIT what a request read while a transaction revoked the key', async () => {
    const { a } = await twoAppliances();
    const account = await a.transaction((tx) => tx.accounts.create({ name: 'acme', plan: 'enterprise' }));
    const keys = await a.transaction((tx) => tx.credentials.create(account.id));
    const cache = createLookupCache(a);
    expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).not.toBeNull();
    await a.transaction(async (tx) => {
      await tx.credentials.revoke(keys.apiKey);
      // A request meanwhile, on another connection of the pool: the key, still valid.
      expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).not.toBeNull();
    });
    // At once, not at the next CROSS_NODE_STALENESS_MS slice (docs/cli.md "Accounts and keys").
    expect(await (await cache.fresh()).credentialByApiKey(keys.apiKey)).toBeNull();
  });

  it('a maintenance window created on one appliance is in its lookups at once, and in the other’s within CROSS_NODE_STALENESS_MS', async () => {
    const { a, b } = await twoAppliances();
    const account = await a.transaction((tx) => tx.accounts.create({ name: 'acme', plan: 'enterprise' }));
    const [onA, onB] = [createLookupCache(a), createLookupCache(b)];
    const now = Date.now();
    expect(await (await onA.fresh()).windowsOf(account.id, now)).toEqual([]);
    expect(await (await onB.fresh()).windowsOf(account.id, now)).toEqual([]);
    const created = await a.transaction((tx) => tx.maintenance.create({ accountId: account.id, startsAt: now - 1000, endsAt: now + 3_600_000, reason: 'switch swap', matches: [] }, now));
    expect((await (await onA.fresh()).windowsOf(account.id, now)).map((w) => w.id)).toEqual([created.id]);
    const seenOnB = performance.now();
    while ((await (await onB.fresh()).windowsOf(account.id, Date.now())).length === 0) {
      expect(performance.now() - seenOnB).toBeLessThan(CROSS_NODE_STALENESS_MS + 500);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});
