import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { loadConfig } from '../config';
import { createStore, keyFileFor } from '../store';
import { checkDatabase } from './doctor-checks';

/** A configuration whose store is `url`, its key folder fresh (or holding `key`). */
function configWith(url: string, key?: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'va-doctor-')), 'data', 'voice-alert.db');
  if (key) {
    mkdirSync(join(path, '..'), { recursive: true });
    copyFileSync(key, keyFileFor(path));
  }
  return loadConfig({ env: {}, defaultPath: null, flags: { 'store.path': path, 'store.url': url, 'store.busy_timeout_ms': 2000 } });
}

describe('voice-alert doctor on a PostgreSQL store', () => {
  it('passes when the database takes a write, never showing the password', async () => {
    const url = testStoreUrl()!.replace('voicealert@', 'voicealert:hunter2@');
    const check = await checkDatabase(configWith(url));
    expect(check).toMatchObject({ name: 'database', status: 'ok' });
    expect(check.detail).toMatch(/^PostgreSQL at postgres:\/\/…@127\.0\.0\.1:\d+\/t_\w+ takes a write$/);
  });

  it('fails with the remedy when nothing answers at store.url', async () => {
    const check = await checkDatabase(configWith('postgres://voicealert:hunter2@127.0.0.1:9/none'));
    expect(check).toMatchObject({ name: 'database', status: 'fail' });
    expect(check.detail).not.toContain('hunter2');
    expect(check.remedy).toMatch(/check store\.url/);
  });

  it("fails when this appliance's secret.key cannot open the database's secrets, saying where to get the right one", async () => {
    const url = testStoreUrl()!;
    const first = configWith(url);
    const store = await createStore({ path: first.store.path, url, busyTimeoutMs: 2000, clock: Date.now });
    await store.transaction(async (tx) => void (await tx.credentials.create((await tx.accounts.create({ name: 'a', plan: 'starter' })).id)));
    await store.close();
    const other = await checkDatabase(configWith(url));
    expect(other).toMatchObject({ status: 'fail', remedy: 'copy secret.key from an appliance already on this database' });
    expect(await checkDatabase(configWith(url, keyFileFor(first.store.path)))).toMatchObject({ status: 'ok' });
  });
});
