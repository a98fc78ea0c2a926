import { afterAll } from 'vitest';
import { closeLeftoverStores } from './open-stores';
import { endFileDatabases } from './postgres';

// Runs before every test file (vitest.config.ts setupFiles), in the file's own context: after
// its tests, the stores it left open are closed, then any session still open on a database it
// made (a store made without the helpers) is ended.
afterAll(async () => {
  await closeLeftoverStores();
  await endFileDatabases();
});
