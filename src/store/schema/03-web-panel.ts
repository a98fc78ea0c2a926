import type { MigrationStep } from './migration-step';

/** Schema step 3: web panel: users, sessions, login throttling. Released: never edit, add a step (migration-step.ts). */
export const webPanelStep: MigrationStep = {
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
};
