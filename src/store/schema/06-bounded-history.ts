import type { MigrationStep } from './migration-step';

/** Schema step 6: bounded api history: refused requests aggregated per minute, pruning by age; health write probe. Released: never edit, add a step (migration-step.ts). */
export const boundedHistoryStep: MigrationStep = {
  version: 6,
  name: 'bounded api history: refused requests aggregated per minute, pruning by age; health write probe',
  sql: `
    -- Refused requests with no account known are one row per (address, endpoint, status,
    -- minute): bucket names that key (NULL for every other row), count how many it stands
    -- for, first_at the first of them (at is the last). A flood of 403/429 from one address
    -- adds a row a minute instead of a row a request (issue 10 §1).
    ALTER TABLE api_history ADD COLUMN bucket TEXT;
    ALTER TABLE api_history ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
    ALTER TABLE api_history ADD COLUMN first_at INTEGER;
    CREATE UNIQUE INDEX api_history_bucket ON api_history(bucket) WHERE bucket IS NOT NULL;
    -- store.history_days: the sweeper deletes by age, oldest first, in batches.
    CREATE INDEX api_history_at ON api_history(at);

    -- GET /healthz proves the database takes a write by writing this one row.
    CREATE TABLE health_probe (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      at INTEGER NOT NULL
    ) STRICT;
  `,
};
