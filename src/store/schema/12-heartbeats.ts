import type { MigrationStep } from './migration-step';

/** docs/on-call.md "Heartbeats": ping URLs with deadlines, checked row by row under a lease. */
export const heartbeatsStep: MigrationStep = {
  version: 12,
  name: 'heartbeats: ping URLs, deadlines, the appliances that check them',
  sql: `
      -- A dead man's switch: a ping at /heartbeat/<token> at least every interval_s (+ grace_s).
      -- Only the token's SHA-256 is kept (like webhook keys): the ping URL is shown once.
      CREATE TABLE heartbeats (
        id           TEXT PRIMARY KEY,               -- hb_…
        account_id   TEXT NOT NULL REFERENCES accounts(id),
        name         TEXT NOT NULL,
        token_hash   BLOB NOT NULL UNIQUE,
        interval_s   INTEGER NOT NULL,
        grace_s      INTEGER NOT NULL,
        policy_id    TEXT,                           -- called under this policy, or
        numbers      TEXT NOT NULL,                  -- JSON ["5…"]: these numbers
        message      TEXT,                           -- NULL: the default text in panel.language
        state        TEXT NOT NULL CHECK (state IN ('new','up','late')),
        paused       INTEGER NOT NULL DEFAULT 0,
        last_ping_at INTEGER,                        -- unix ms, lease clock (dialect.ts)
        deadline_at  INTEGER,                        -- late after this; NULL while new
        alert_id     TEXT,                           -- the alert raised when it last went late
        lease_until  INTEGER,                        -- a checker claimed it (src/heartbeats/checker.ts)
        lease_owner  TEXT,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        UNIQUE (account_id, name)
      ) STRICT;
      CREATE INDEX heartbeats_due ON heartbeats(state, deadline_at);

      -- Each appliance that checks deadlines, by node, and when it last did: an appliance
      -- that starts while no other checked recently knows the service was down, and gives
      -- every heartbeat a full interval from its start (docs/on-call.md "Heartbeats").
      CREATE TABLE heartbeat_nodes (
        node    TEXT PRIMARY KEY,
        seen_at INTEGER NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
};
