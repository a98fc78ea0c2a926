import type { MigrationStep } from './migration-step';

/** Schema step 1: accounts, credentials, usage, call queue, api history, idempotency. Released: never edit, add a step (migration-step.ts). */
export const initialStep: MigrationStep = {
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
};
