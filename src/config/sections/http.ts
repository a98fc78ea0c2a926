import * as z from 'zod';
import { parseHostPort } from '../host-port';

export const httpSection = z
  .object({
    /** Address the HTTP server binds, `host:port` (IPv6 as `[::1]:8080`). */
    listen: z
      .string()
      .refine((v) => parseHostPort(v) !== null, 'expected host:port, e.g. 0.0.0.0:8080')
      .default('0.0.0.0:8080'),
    /** Requests per minute per source IP on the alert endpoints; 0 disables the limit. */
    rate_limit_per_minute: z.number().int().min(0).default(60),
    /** Take the client IP from X-Forwarded-For (only behind a reverse proxy you run). */
    trust_proxy: z.boolean().default(false),
    /** Largest accepted request body. */
    max_body_bytes: z.number().int().min(1024).default(64 * 1024),
  })
  .strict();
