import type { MigrationStep } from './migration-step';

/**
 * Contract "Nothing silently calls nobody": an alert that found nobody to call says why, and
 * an account names who is called then. Released: never edit, add a step (migration-step.ts).
 */
export const unroutableStep: MigrationStep = {
  version: 20,
  name: 'unroutable alerts and account fallbacks',
  sql: `
      -- Why nobody could be called ("step 1: schedule backup has nobody on call"); NULL for
      -- an alert that reached someone. The panel's Overview shows these in red.
      ALTER TABLE alerts ADD COLUMN unroutable TEXT;
      -- Who is called when nothing else resolves, per account: a number now; person_id is
      -- kept for people (a later round, issue 45), so a person can take the place of the number.
      CREATE TABLE account_fallbacks (
        account_id    TEXT PRIMARY KEY REFERENCES accounts(id),
        phone_number  TEXT,
        person_id     TEXT,
        updated_at    INTEGER NOT NULL
      ) STRICT;
  `,
};
