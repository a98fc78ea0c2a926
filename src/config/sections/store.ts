import * as z from 'zod';

export const storeSection = z
  .object({
    /** SQLite database file; its folder is created and also holds the secret key file. */
    path: z.string().min(1).default('./data/voice-alert.db'),
    /** How long SQLite waits for a lock held by another process (the CLI) before failing. */
    busy_timeout_ms: z.number().int().min(0).default(5000),
  })
  .strict();
