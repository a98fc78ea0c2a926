import type { MigrationStep } from './migration-step';

/** docs/on-call.md "Maintenance windows": the windows, and what an alert carries to be matched and shown suppressed. */
export const maintenanceWindowsStep: MigrationStep = {
  version: 13,
  name: 'maintenance windows',
  sql: `
      -- Planned work: alerts of the account that match are stored but nobody is called
      -- between starts_at and ends_at (src/maintenance).
      CREATE TABLE maintenance_windows (
        id          TEXT PRIMARY KEY,                -- mw_…
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        starts_at   INTEGER NOT NULL,                -- unix ms
        ends_at     INTEGER NOT NULL,
        reason      TEXT NOT NULL,
        matches     TEXT NOT NULL,                   -- JSON array: "key=<prefix>", "source=<name>", "label:<name>=<value>"
        created_at  INTEGER NOT NULL,
        started_at  INTEGER,                         -- when its start cancelled the matching calls (NULL: not yet)
        lease_until INTEGER,                         -- the start is leased to one appliance (lease clock)
        lease_owner TEXT
      ) STRICT;
      CREATE INDEX maintenance_windows_account ON maintenance_windows(account_id, ends_at);
      CREATE INDEX maintenance_windows_start ON maintenance_windows(started_at, starts_at);

      -- A native source's labels (JSON object; NULL: none), matched by "label:<name>=<value>".
      ALTER TABLE alerts ADD COLUMN labels TEXT;
      -- The window that suppressed the alert (mw_…) and until when: shown with the alert; its
      -- calls are not placed while suppressed_until lies ahead.
      ALTER TABLE alerts ADD COLUMN suppressed_by TEXT;
      ALTER TABLE alerts ADD COLUMN suppressed_until INTEGER;
  `,
};
