import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '.';

describe('change marker', () => {
  it('stays while nothing changes and moves on a change through this connection or a commit by another', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-marker-')), 'voice-alert.db');
    const store = createStore({ path, busyTimeoutMs: 1000, clock: Date.now });
    const first = store.changeMarker();
    store.accounts.list(); // a read is no change
    expect(store.changeMarker()).toBe(first);
    const account = store.accounts.create({ name: 'a', plan: 'starter' });
    const afterOwn = store.changeMarker();
    expect(afterOwn).not.toBe(first);
    const other = createStore({ path, busyTimeoutMs: 1000, clock: Date.now });
    other.accounts.setDisabled(account.id, true);
    await other.close();
    expect(store.changeMarker()).not.toBe(afterOwn);
    await store.close();
  });
});
