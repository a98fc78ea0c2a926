import * as z from 'zod';

export const storeSection = z
  .object({
    /** SQLite database file; its folder is created and also holds the secret key file. */
    path: z.string().min(1).default('./data/voice-alert.db'),
    /**
     * PostgreSQL instead of the file (docs/high-availability.md): every appliance
     * given the same URL shares one store. secret.key (beside `path`) must then be the
     * same file on every appliance. Empty: the SQLite file.
     */
    url: z
      .string()
      .regex(/^$|^postgres(ql)?:\/\/[^\s]+$/, 'must be a postgres:// URL, e.g. postgres://voicealert:secret@db/voicealert')
      .default(''),
    /** How long SQLite waits for a lock held by another process (the CLI) before failing. */
    busy_timeout_ms: z.number().int().min(0).default(5000),
    /**
     * PostgreSQL: how long a request (or any unit of work) waits for the database in all,
     * then `503 Database unavailable` (docs/high-availability.md). Also the server's
     * statement and lock timeouts.
     */
    timeout_ms: z.number().int().min(100).default(5000),
    /** PostgreSQL: connections in this appliance's pool. */
    pool_size: z.number().int().min(2).max(100).default(10),
    /** API history rows older than this are pruned in the background (issue 10 §1). */
    history_days: z.number().int().min(1).default(90),
    /** At most this many API history rows are kept, the newest. */
    history_max_rows: z.number().int().min(1000).default(1_000_000),
    /** GET /healthz fails (503) when the database's file system has less free space, in MiB. */
    min_free_mb: z.number().int().min(0).default(100),
  })
  .strict();
