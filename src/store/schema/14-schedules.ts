import type { MigrationStep } from './migration-step';

/** On-call schedules and their overrides (docs/on-call.md "On-call schedules"). */
export const schedulesStep: MigrationStep = {
  version: 14,
  name: 'on-call schedules, overrides, on-call change watch',
  sql: `
      CREATE TABLE schedules (
        id          TEXT PRIMARY KEY,                -- sch_…
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        name        TEXT NOT NULL,
        time_zone   TEXT NOT NULL,                   -- IANA, e.g. Europe/Istanbul
        layers      TEXT NOT NULL,                   -- JSON, as validated by src/schedules/layers.ts
        ics_token   TEXT NOT NULL UNIQUE,            -- GET /schedules/<token>.ics: the token is the credential
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        -- oncall.changed (src/schedules/watch.ts): who was on call when last looked at, and
        -- when to look again (the next change); one appliance at a time holds the row's lease.
        watched_name   TEXT,
        watched_number TEXT,
        watch_at       INTEGER NOT NULL,
        watch_lease_until INTEGER,
        watch_lease_owner TEXT,
        UNIQUE (account_id, name)
      ) STRICT;
      CREATE INDEX schedules_watch ON schedules(watch_at);

      -- An override puts one person on call for [starts_at, ends_at), over every layer.
      CREATE TABLE schedule_overrides (
        id           TEXT PRIMARY KEY,               -- ovr_…
        schedule_id  TEXT NOT NULL REFERENCES schedules(id),
        starts_at    INTEGER NOT NULL,               -- unix ms
        ends_at      INTEGER NOT NULL,
        name         TEXT,
        phone_number TEXT NOT NULL,
        created_at   INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX schedule_overrides_schedule ON schedule_overrides(schedule_id, ends_at);
  `,
};
