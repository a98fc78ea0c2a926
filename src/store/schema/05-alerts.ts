import { postgresDdl } from '../sql/postgres/ddl';
import type { MigrationStep } from './migration-step';

/** Migration 5 in two parts: PostgreSQL runs the schema only (see the step). */
const ALERTS_SCHEMA = `
      -- One accepted request (or native alert) with its key; its calls point at it.
      CREATE TABLE alerts (
        id              TEXT PRIMARY KEY,            -- alt_…
        account_id      TEXT NOT NULL REFERENCES accounts(id),
        credential_id   TEXT,
        alert_key       TEXT,                        -- NULL: a plain request, never deduplicated
        source          TEXT NOT NULL,               -- api | webhook | test | a native source
        message         TEXT NOT NULL,
        state           TEXT NOT NULL,               -- src/call-model/alert-states.ts
        state_reason    TEXT,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        acknowledged_at INTEGER,
        acknowledged_by TEXT,                        -- the number that pressed 1, or who used the API/panel
        resolved_at     INTEGER
      ) STRICT;
      CREATE INDEX alerts_account ON alerts(account_id, created_at);
      CREATE INDEX alerts_key ON alerts(account_id, alert_key, state);

      ALTER TABLE calls ADD COLUMN alert_id TEXT REFERENCES alerts(id);
      -- Spoken in another call of the same number (pacing): that call's id.
      ALTER TABLE calls ADD COLUMN bundled_into TEXT;
      -- Whether queuing it took a credit (a cancelled call never dialled gives it back).
      ALTER TABLE calls ADD COLUMN charged INTEGER NOT NULL DEFAULT 1;
      UPDATE calls SET charged = 0 WHERE source = 'test';
      CREATE INDEX calls_alert ON calls(alert_id);

      -- One row per INVITE sent, by number: calls.per_number_gap_s and _per_hour count these.
      CREATE TABLE dials (
        phone_number TEXT NOT NULL,
        at           INTEGER NOT NULL,
        call_id      TEXT NOT NULL
      ) STRICT;
      CREATE INDEX dials_number ON dials(phone_number, at);

`;

const ALERTS_BACKFILL = `
      -- Every existing call gets an alert: the calls of one request (same account, credential,
      -- source, text and time) share one. A call not yet finished keeps its alert open.
      INSERT INTO alerts (id, account_id, credential_id, alert_key, source, message, state,
                          created_at, updated_at, acknowledged_at)
      SELECT 'alt_' || substr(min(id), 6), account_id, credential_id, NULL, source, message,
             CASE WHEN max(acknowledged_at) IS NOT NULL THEN 'acknowledged'
                  WHEN sum(finished_at IS NULL) > 0 THEN 'open'
                  ELSE 'unacknowledged' END,
             created_at, max(updated_at), max(acknowledged_at)
      FROM calls GROUP BY account_id, credential_id, source, message, created_at;
      UPDATE calls SET alert_id = (
        SELECT a.id FROM alerts a
        WHERE a.account_id = calls.account_id AND a.created_at = calls.created_at
          AND a.credential_id IS calls.credential_id AND a.source = calls.source AND a.message = calls.message);
`;

/** Schema step 5: alerts: identity, state and calls; per-number dials for pacing. Released: never edit, add a step (migration-step.ts). */
export const alertsStep: MigrationStep = {
  version: 5,
  name: 'alerts: identity, state and calls; per-number dials for pacing',
  sql: ALERTS_SCHEMA + ALERTS_BACKFILL,
  // A PostgreSQL store is created empty (migrate-to-postgres copies rows in afterwards):
  // there is nothing to backfill, and the backfill is SQLite's SQL.
  postgres: postgresDdl(ALERTS_SCHEMA),
};
