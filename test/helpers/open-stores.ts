import type { Store } from '../../src/store';

/**
 * Stores a test made and has not closed. Unit files share their worker (vitest.config.ts
 * UNIT_FILES_SHARE_MODULES), so a store a file forgets is no longer ended with the file's
 * worker: on PostgreSQL its pool keeps its connections, and some dozen such files exhaust the
 * test cluster's max_connections ("sorry, too many clients already") for the files after them.
 */
const open = new Set<Store>();

/** The store, remembered until it is closed; `closeLeftoverStores` closes it after its file otherwise. */
export function tracked(store: Store): Store {
  open.add(store);
  const close = store.close.bind(store);
  store.close = async () => {
    open.delete(store);
    await close();
  };
  return store;
}

/** Every store a file left open, closed once the file's tests are done (test/helpers/test-file-setup.ts). */
export async function closeLeftoverStores(): Promise<void> {
  const left = [...open];
  open.clear();
  await Promise.allSettled(left.map((s) => s.close()));
}
