import type { MigrationStep } from './migration-step';

/**
 * Contract "A second path: SMS and e-mail" (docs/second-path.md): the texts and e-mails owed
 * to a person reached by an alert, written beside their first call, and every text and e-mail
 * sent or received for an alert. Released: never edit, add a step (migration-step.ts).
 */
export const secondPathNoticesStep: MigrationStep = {
  version: 24,
  name: 'second path: notices owed and texts recorded',
  sql: `
    -- The alert's short code (4 digits, unique among the account's alerts not resolved when
    -- given), set when its first text or e-mail is prepared; NULL: nobody was texted.
    ALTER TABLE alerts ADD COLUMN short_code TEXT;

    -- One row per alert and person, written in the transaction that queues the person's first
    -- call (calls.ts enqueue): a durable outbox the notifier (src/second-path/notifier.ts)
    -- drains after COMMIT.
    CREATE TABLE text_notices (
      id          TEXT PRIMARY KEY,                  -- <alert_id>/<person_id>: once per alert and person
      alert_id    TEXT NOT NULL,
      person_id   TEXT NOT NULL,
      account_id  TEXT NOT NULL,
      state       TEXT NOT NULL CHECK (state IN ('pending','done')),
      created_at  INTEGER NOT NULL,                  -- unix ms
      lease_until INTEGER,                           -- a notifier holds it until then (store/lease.ts)
      lease_owner TEXT,
      finished_at INTEGER
    ) STRICT;
    CREATE INDEX text_notices_pending ON text_notices(state, created_at);

    -- Each text and e-mail out, and each text in, for an alert (GET /api/alerts/{id} events).
    CREATE TABLE alert_texts (
      id         INTEGER PRIMARY KEY,
      alert_id   TEXT NOT NULL,
      account_id TEXT NOT NULL,
      person_id  TEXT,
      type       TEXT NOT NULL,                      -- sms.sent | sms.failed | email.sent | email.failed | sms.received
      address    TEXT NOT NULL,                      -- the number or e-mail address
      detail     TEXT,                               -- why it failed, the reply's words, the path used
      at         INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX alert_texts_alert ON alert_texts(alert_id, id);
    CREATE INDEX alert_texts_address ON alert_texts(address, type, id);
  `,
};
