import { postgresDdl } from './sql/postgres/ddl';
import { USAGE_SHARDS } from './usage';
import { heartbeatsStep } from './schema/12-heartbeats';
import { maintenanceWindowsStep } from './schema/13-maintenance-windows';
import { schedulesStep } from './schema/14-schedules';
import { callEventTrunksStep } from './schema/15-call-event-trunks';
import { selfTestsStep } from './schema/16-self-tests';
import { voiceDeskStep } from './schema/17-voice-desk';
import { alertsByKeyStep } from './schema/18-alerts-by-key';
import type { MigrationStep } from './schema/migration-step';

/** Usage per account, period and shard (usage.ts). */
const USAGE_SHARDS_SCHEMA = `
      CREATE TABLE usage_shards (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        period     TEXT NOT NULL,                    -- YYYY-MM in credit.timezone
        shard      INTEGER NOT NULL,                 -- 0 … USAGE_SHARDS-1
        used       INTEGER NOT NULL,
        exact      INTEGER NOT NULL,                 -- 1: every charge of the period checks the total
        PRIMARY KEY (account_id, period, shard)
      ) STRICT, WITHOUT ROWID;
`;
const OTHER_SHARDS = Array.from({ length: USAGE_SHARDS - 1 }, (_, i) => i + 1);

export type { MigrationStep } from './schema/migration-step';

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

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    version: 1,
    name: 'accounts, credentials, usage, call queue, api history, idempotency',
    sql: `
      CREATE TABLE accounts (
        id             TEXT PRIMARY KEY,             -- acc_…
        name           TEXT NOT NULL,
        plan           TEXT NOT NULL CHECK (plan IN ('free','starter','professional','enterprise')),
        monthly_credit INTEGER,                      -- NULL: the plan's default
        disabled       INTEGER NOT NULL DEFAULT 0,
        created_at     INTEGER NOT NULL              -- unix ms
      ) STRICT;

      -- Secrets are never stored in plain text: a SHA-256 to check or look up. The API
      -- secret also has an AES-GCM copy (key file beside the database) to verify HMAC
      -- signatures; the webhook key needs none, it arrives with every request.
      CREATE TABLE credentials (
        id                TEXT PRIMARY KEY,          -- cred_…
        account_id        TEXT NOT NULL REFERENCES accounts(id),
        api_key           TEXT NOT NULL UNIQUE,      -- an identifier, not a secret
        secret_hash       BLOB NOT NULL,
        secret_enc        BLOB NOT NULL,
        webhook_key_hash  BLOB NOT NULL UNIQUE,
        require_signature INTEGER NOT NULL DEFAULT 0,
        created_at        INTEGER NOT NULL,
        revoked_at        INTEGER
      ) STRICT;
      CREATE INDEX credentials_account ON credentials(account_id);

      CREATE TABLE usage (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        period     TEXT NOT NULL,                    -- YYYY-MM in credit.timezone
        used       INTEGER NOT NULL,
        PRIMARY KEY (account_id, period)
      ) STRICT, WITHOUT ROWID;

      -- The call queue, one table (goqite-style): a worker claims a row by setting a lease.
      CREATE TABLE calls (
        id             TEXT PRIMARY KEY,             -- call_…
        account_id     TEXT NOT NULL REFERENCES accounts(id),
        credential_id  TEXT,
        source         TEXT NOT NULL,                -- api | webhook | test
        phone_number   TEXT NOT NULL,                -- 10 digits, 5xxxxxxxxx
        message        TEXT NOT NULL,
        state          TEXT NOT NULL,
        attempts       INTEGER NOT NULL DEFAULT 0,
        run_after      INTEGER NOT NULL,             -- unix ms: not claimed before this
        lease_until    INTEGER,                      -- unix ms: a crash lets it expire
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        last_sip_code  INTEGER,
        last_reason    TEXT,
        acknowledged_at INTEGER
      ) STRICT;
      CREATE INDEX calls_ready ON calls(state, run_after);
      CREATE INDEX calls_account ON calls(account_id, created_at);

      -- What the API answered, for the panel. Never a secret, never a body.
      CREATE TABLE api_history (
        id            INTEGER PRIMARY KEY,
        at            INTEGER NOT NULL,
        request_id    TEXT NOT NULL,
        endpoint      TEXT NOT NULL,
        source_ip     TEXT NOT NULL,
        status        INTEGER NOT NULL,
        message       TEXT NOT NULL,
        account_id    TEXT,
        credential_id TEXT
      ) STRICT;
      CREATE INDEX api_history_account ON api_history(account_id, at);

      -- Retried deliveries: the first accepted answer per (credential, endpoint, key).
      CREATE TABLE idempotency (
        credential_id TEXT NOT NULL,
        endpoint      TEXT NOT NULL,
        key           TEXT NOT NULL,
        outcome       TEXT NOT NULL,              -- JSON of the accepted outcome, replayed as is
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (credential_id, endpoint, key)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'telephony: call events, answer and finish times',
    sql: `
      -- Every edge a call takes (src/calls/transition.ts), with the SIP final code and reason
      -- that caused it, so an operator can tell "busy twice, then answered" from the record.
      CREATE TABLE call_events (
        id         INTEGER PRIMARY KEY,
        call_id    TEXT NOT NULL REFERENCES calls(id),
        at         INTEGER NOT NULL,                 -- unix ms
        attempt    INTEGER NOT NULL,
        from_state TEXT NOT NULL,
        to_state   TEXT NOT NULL,
        sip_code   INTEGER,
        reason     TEXT
      ) STRICT;
      CREATE INDEX call_events_call ON call_events(call_id, id);
      ALTER TABLE calls ADD COLUMN answered_at INTEGER;
      ALTER TABLE calls ADD COLUMN finished_at INTEGER;
      -- The claim skips numbers that have a call in progress (never two at once).
      CREATE INDEX calls_in_progress ON calls(phone_number, state);
    `,
  },
  {
    version: 3,
    name: 'web panel: users, sessions, login throttling',
    sql: `
      -- Who may log in to /panel. An owner belongs to exactly one account; an admin to none.
      CREATE TABLE panel_users (
        id            TEXT PRIMARY KEY,              -- usr_…
        login         TEXT NOT NULL UNIQUE COLLATE NOCASE, -- admin user name or owner e-mail
        role          TEXT NOT NULL CHECK (role IN ('admin','owner')),
        account_id    TEXT REFERENCES accounts(id),
        password_hash TEXT NOT NULL,                 -- Bun.password argon2id (PHC string)
        created_at    INTEGER NOT NULL,
        CHECK ((role = 'owner') = (account_id IS NOT NULL))
      ) STRICT;
      CREATE INDEX panel_users_account ON panel_users(account_id);

      -- The cookie holds a random token; only its SHA-256 is kept, so a copy of the
      -- database cannot be replayed as a login.
      CREATE TABLE panel_sessions (
        token_hash   BLOB PRIMARY KEY,
        user_id      TEXT NOT NULL REFERENCES panel_users(id) ON DELETE CASCADE,
        csrf_token   TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL              -- absolute end; idle expiry uses last_seen_at
      ) STRICT;
      CREATE INDEX panel_sessions_user ON panel_sessions(user_id);

      -- Failed logins per key ('ip:<address>' or 'login:<name>') in the current window.
      CREATE TABLE panel_login_failures (
        key      TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        first_at INTEGER NOT NULL,
        last_at  INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'call queue: the state a claim took the call from',
    sql: `
      -- The claim is one UPDATE … RETURNING; RETURNING shows the new row only, so the state
      -- before the claim (queued, or in progress under a lease that ran out) is kept here.
      ALTER TABLE calls ADD COLUMN claimed_from TEXT;
    `,
  },
  {
    version: 5,
    name: 'alerts: identity, state and calls; per-number dials for pacing',
    sql: ALERTS_SCHEMA + ALERTS_BACKFILL,
    // A PostgreSQL store is created empty (migrate-to-postgres copies rows in afterwards):
    // there is nothing to backfill, and the backfill is SQLite's SQL.
    postgres: postgresDdl(ALERTS_SCHEMA),
  },
  {
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
  },
  {
    version: 7,
    name: 'escalation: policies, running escalations, the step of each call',
    sql: `
      -- Who is called, in which order, how long each step waits for a keypad 1 (contract.md
      -- "Escalation"). steps: JSON [{"numbers":["5…"],"wait_s":300}, …].
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
  },
  {
    version: 8,
    name: 'outcome callbacks: per-account target and the outbox',
    sql: `
      -- Where an account's outcome events go (contract.md "Outcome callbacks"). The secret
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
  },
  {
    version: 9,
    name: 'panel: each user\'s language',
    sql: `
      -- The panel's language as this person last chose it (tr, en); NULL: panel.language.
      ALTER TABLE panel_users ADD COLUMN language TEXT;
    `,
  },
  {
    version: 10,
    name: 'no leader: outbox leases, shared replay memory',
    sql: `
      -- An outbox event being sent is leased to one appliance's sender (src/callbacks/sender.ts)
      -- until lease_until: another appliance sends it once the lease ran out (the sender hung
      -- or died), and a sender whose lease was taken over cannot record over the other's.
      ALTER TABLE callback_outbox ADD COLUMN lease_until INTEGER;
      ALTER TABLE callback_outbox ADD COLUMN lease_owner TEXT;

      -- Signatures already accepted, shared by every appliance on the database: a signed
      -- request replayed to another appliance is refused as on one. Kept until the
      -- timestamp alone would refuse it (expires_at, unix ms), then pruned.
      CREATE TABLE signed_requests (
        credential_id TEXT NOT NULL,
        signature     TEXT NOT NULL,
        expires_at    INTEGER NOT NULL,
        PRIMARY KEY (credential_id, signature)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX signed_requests_expiry ON signed_requests(expires_at);
    `,
  },
  {
    version: 11,
    name: 'usage in shards: charges far from the credit limit do not wait for each other',
    sql: USAGE_SHARDS_SCHEMA + `
      -- Periods charged before: exact from the start (usage.ts), as every charge was.
      INSERT INTO usage_shards (account_id, period, shard, used, exact) SELECT account_id, period, 0, used, 1 FROM usage;
      INSERT INTO usage_shards (account_id, period, shard, used, exact)
        SELECT u.account_id, u.period, s.value, 0, 1 FROM usage u, json_each('${JSON.stringify(OTHER_SHARDS)}') s;
      DROP TABLE usage;
    `,
    postgres: postgresDdl(USAGE_SHARDS_SCHEMA) + `
      INSERT INTO usage_shards (account_id, period, shard, used, exact) SELECT account_id, period, 0, used, 1 FROM usage;
      INSERT INTO usage_shards (account_id, period, shard, used, exact)
        SELECT u.account_id, u.period, s, 0, 1 FROM usage u, generate_series(1, ${OTHER_SHARDS.length}) s;
      DROP TABLE usage;
    `,
  },
  heartbeatsStep,
  maintenanceWindowsStep,
  schedulesStep,
  callEventTrunksStep,
  selfTestsStep,
  voiceDeskStep,
  alertsByKeyStep,
];

/** The schema version this program writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
