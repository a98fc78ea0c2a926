import { closeLeftoverStoresAfterEachFile } from './open-stores';

// Runs before every test file (vitest.config.ts setupFiles), in the file's own context.
closeLeftoverStoresAfterEachFile();
