import { afterAll } from 'vitest';
import { cheapenPasswordHashing } from './cheap-password-hash';
import { closeLeftoverStores } from './open-stores';
import { endFileDatabases } from './postgres';

// Runs before every test file (vitest.config.ts setupFiles), in the file's own context.
// Passwords and PINs hashed in process cost a millisecond, not the production 0.1 s
// (cheap-password-hash.ts says why, and which tests keep the production cost).
cheapenPasswordHashing();

// After its tests, the stores it left open are closed, then any session still open on a
// database it made (a store made without the helpers) is ended.
afterAll(async () => {
  await closeLeftoverStores();
  await endFileDatabases();
});
