import type { MigrationStep } from './migration-step';

/** Schema step 7: escalation: policies, running escalations, the step of each call. Released: never edit, add a step (migration-step.ts). */
export const escalationStep: MigrationStep = {
  version: 7,
  name: 'escalation: policies, running escalations, the step of each call',
  sql: `
    -- Who is called, in which order, how long each step waits for a keypad 1 (docs/on-call.md
    -- "Escalation: call until someone presses 1"). steps: JSON [{"numbers":["5…"],"wait_s":300}, …].
    CREATE TABLE policies (
      id         TEXT PRIMARY KEY,                 -- pol_…
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name       TEXT NOT NULL,
      steps      TEXT NOT NULL,
      rounds     INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, name)
    ) STRICT;
    ALTER TABLE credentials ADD COLUMN default_policy_id TEXT;

    -- One row per alert under a policy: the durable schedule the engine follows. The policy
    -- is copied in (plan), so editing it never changes an escalation already running.
    CREATE TABLE escalations (
      alert_id        TEXT PRIMARY KEY REFERENCES alerts(id),
      account_id      TEXT NOT NULL,
      credential_id   TEXT,
      policy_id       TEXT NOT NULL,
      plan            TEXT NOT NULL,               -- JSON {steps, rounds}
      message         TEXT NOT NULL,
      round           INTEGER NOT NULL,            -- 1-based
      step            INTEGER NOT NULL,            -- 0-based within the round
      step_started_at INTEGER NOT NULL,
      next_at         INTEGER NOT NULL,            -- not looked at before this
      skip_wait       INTEGER NOT NULL DEFAULT 0,  -- keypad 3: the next step starts at once
      state           TEXT NOT NULL,               -- running | done
      reason          TEXT
    ) STRICT;
    CREATE INDEX escalations_due ON escalations(state, next_at);

    -- Which step placed a call (0 for calls outside any escalation).
    ALTER TABLE calls ADD COLUMN escalation_ordinal INTEGER NOT NULL DEFAULT 0;
  `,
};
