import type { MigrationStep } from './migration-step';

/** docs/telephony.md "Voice-path self-test": each run's result, and each trunk's next scheduled run under a lease. */
export const selfTestsStep: MigrationStep = {
  version: 16,
  name: 'self-tests: voice-path self-test results and their schedule',
  sql: `
      -- One self-test call and its verdict. Belongs to no account and costs no credit.
      CREATE TABLE self_tests (
        id          TEXT PRIMARY KEY,                -- st_…
        trunk       TEXT NOT NULL,
        number      TEXT NOT NULL,
        expect      TEXT NOT NULL CHECK (expect IN ('answer','echo')),
        ok          INTEGER NOT NULL,
        reason      TEXT NOT NULL,
        echo_ratio  REAL,                            -- frames back in order / frames sent; NULL unless expect = echo
        origin      TEXT NOT NULL CHECK (origin IN ('schedule','cli')),
        started_at  INTEGER NOT NULL,
        finished_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX self_tests_trunk ON self_tests(trunk, finished_at);

      -- When each trunk's next scheduled self-test is due (lease clock, dialect.ts); the
      -- appliance that claims it holds a lease while the call runs (src/self-test/scheduler.ts).
      CREATE TABLE self_test_schedule (
        trunk       TEXT PRIMARY KEY,
        next_run_at INTEGER NOT NULL,
        lease_until INTEGER,
        lease_owner TEXT
      ) STRICT, WITHOUT ROWID;
    `,
};
