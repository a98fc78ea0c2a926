import type { MigrationStep } from './migration-step';

/**
 * Contract "People" (docs/on-call.md "People"): who is reached, with the ways to reach them.
 * Released: never edit, add a step (migration-step.ts).
 */
export const peopleStep: MigrationStep = {
  version: 21,
  name: 'people, and calls and overrides that name them',
  sql: `
      CREATE TABLE people (
        id          TEXT PRIMARY KEY,                -- per_…
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        name        TEXT NOT NULL,
        -- The name folded to lower case (src/store/people.ts nameKey): names are unique per
        -- account case-insensitively, on both stores alike (no COLLATE, which PostgreSQL lacks).
        name_key    TEXT NOT NULL,
        -- JSON [{"number","verified_at"}], called in this order; numbers in their stored form.
        phones      TEXT NOT NULL,
        sms         TEXT NOT NULL,                   -- JSON [number]
        emails      TEXT NOT NULL,                   -- JSON [address]
        language    TEXT NOT NULL,                   -- tr | en
        time_zone   TEXT,                            -- IANA; NULL: the account's (credit.timezone)
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        UNIQUE (account_id, name_key)
      ) STRICT;

      -- The person a call reaches (NULL: a bare number) and which of their phones it is
      -- (0: the first): a call that fails queues their next phone (src/people/next-phone.ts).
      ALTER TABLE calls ADD COLUMN person_id TEXT;
      ALTER TABLE calls ADD COLUMN person_phone INTEGER;

      -- An override may name a person instead of a number (schedule override --person).
      ALTER TABLE schedule_overrides ADD COLUMN person_id TEXT;
  `,
};
