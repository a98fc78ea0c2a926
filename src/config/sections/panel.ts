import * as z from 'zod';

/** The web panel at /panel (issue 5). */
export const panelSection = z
  .object({
    /** Language of the panel's pages: Turkish or English. */
    language: z.enum(['tr', 'en']).default('tr'),
    /**
     * Base URL shown in the ready-to-paste examples (e.g. `https://alerts.example.com`);
     * empty: taken from the request's Host header.
     */
    public_url: z
      .string()
      .refine((v) => v === '' || /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v), 'expected http(s)://host[:port][/path] or ""')
      .default(''),
    /** A session ends after this long without a request. */
    session_idle_min: z.number().int().min(1).max(7 * 24 * 60).default(60),
    /** A session ends this long after login, however active. */
    session_max_hours: z.number().int().min(1).max(24 * 30).default(12),
    /** Secure cookie flag: `auto` sets it when the request came over TLS (directly or, with http.trust_proxy, X-Forwarded-Proto). */
    secure_cookie: z.enum(['auto', 'always', 'never']).default('auto'),
    /** Failed logins per address or per user name within the window before logins are refused. */
    login_max_failures: z.number().int().min(1).max(1000).default(10),
    login_window_min: z.number().int().min(1).max(24 * 60).default(15),
    /** Delay before answering a login after one failure; doubles with each further failure. */
    login_delay_ms: z.number().int().min(0).max(10_000).default(250),
    /** Upper bound of that delay. */
    login_delay_max_ms: z.number().int().min(0).max(60_000).default(8000),
  })
  .strict();
