import * as z from 'zod';

/** Alert identity and dedupe (docs/http-api.md "Alerts: dedupe and resolve"). */
export const alertsSection = z
  .object({
    /**
     * A repeat of an open alert's key does not call a number again while its last call to
     * that number ended less than this long ago (or is still going on). 0: no dedupe.
     */
    dedupe_window_s: z.number().int().min(0).max(7 * 86_400).default(900),
  })
  .strict();
