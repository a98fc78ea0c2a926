import * as z from 'zod';

/** GET /metrics (docs/operations.md "Metrics"): Prometheus text format. */
export const metricsSection = z
  .object({
    /**
     * When set, /metrics answers only `Authorization: Bearer <token>` (401 otherwise); empty:
     * open, for a scraper on a private network. The counts name accounts' traffic, not secrets.
     */
    token: z.string().default(''),
  })
  .strict();
