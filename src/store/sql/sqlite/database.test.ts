import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';

describe('openDatabase', () => {
  it('creates the database file, its WAL and shared-memory files readable by the owner only (0600)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-mode-')), 'sub', 'voice-alert.db');
    const db = openDatabase({ path, busyTimeoutMs: 100 });
    try {
      db.run('CREATE TABLE t (x)'); // a write, so the WAL exists
      for (const f of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(f).mode & 0o777).toString(8)).toBe('600');
    } finally {
      db.close();
    }
  });

  it('keeps the statement journal of the group commit savepoints in memory (temp_store = MEMORY), not in a temporary file', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'va-temp-')), 'voice-alert.db');
    const db = openDatabase({ path, busyTimeoutMs: 100 });
    try {
      expect(db.query('PRAGMA temp_store').values()).toEqual([[2]]);
    } finally {
      db.close();
    }
  });
});
