import type { MigrationStep } from './migration-step';

/** Schema step 8: outcome callbacks: per-account target and the outbox. Released: never edit, add a step (migration-step.ts). */
export const callbacksStep: MigrationStep = {
  version: 8,
  name: 'outcome callbacks: per-account target and the outbox',
  sql: `
    -- Where an account's outcome events go (docs/on-call.md "Callbacks"). The secret
    -- signs them, so it is kept AES-GCM sealed like the API secret (secret-box.ts).
    ALTER TABLE accounts ADD COLUMN callback_url TEXT;
    ALTER TABLE accounts ADD COLUMN callback_secret_enc BLOB;

    -- Events written in the transaction of the change that caused them; the sender
    -- (src/callbacks/sender.ts) delivers each at least once, one at a time per order_key
    -- (the alert), in id order.
    CREATE TABLE callback_outbox (
      id              INTEGER PRIMARY KEY,          -- delivery order
      event_id        TEXT NOT NULL UNIQUE,         -- evt_…, the same on every retry
      account_id      TEXT NOT NULL REFERENCES accounts(id),
      order_key       TEXT NOT NULL,                -- the alert id (the call id for a call without one)
      type            TEXT NOT NULL,
      body            TEXT NOT NULL,                -- the JSON sent, byte for byte on every retry
      state           TEXT NOT NULL CHECK (state IN ('pending','delivered','given_up')),
      created_at      INTEGER NOT NULL,             -- unix ms
      next_attempt_at INTEGER NOT NULL,
      attempts        INTEGER NOT NULL DEFAULT 0,
      last_attempt_at INTEGER,
      last_status     INTEGER,                      -- HTTP status of the last answer
      last_error      TEXT,                         -- or why there was none (timeout, refused)
      finished_at     INTEGER
    ) STRICT;
    CREATE INDEX callback_outbox_due ON callback_outbox(state, next_attempt_at);
    CREATE INDEX callback_outbox_order ON callback_outbox(order_key, state, id);
    CREATE INDEX callback_outbox_account ON callback_outbox(account_id, id);
  `,
};
