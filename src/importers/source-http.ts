/**
 * The one way the importers read a source's REST API (docs/integrations.md "Moving from Opsgenie
 * or PagerDuty"): GET with the source's own authorization header, JSON back. A `429` waits as
 * the source's rate-limit headers say and asks again (a bounded number of times); any other
 * answer that is not 2xx is a SourceError naming the source's own words, so a bad key reads
 * "Opsgenie answered 401: Could not authenticate", never a stack trace.
 */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface SourceHttpOptions {
  /** How the source is named in errors: `Opsgenie`, `PagerDuty`. */
  source: string;
  /** The API's base URL (Opsgenie US or EU, PagerDuty, or a stand-in): paths are appended. */
  baseUrl: string;
  headers: Record<string, string>;
  fetch?: typeof fetch;
  /** How a 429's wait is spent; tests pass one that records it. */
  sleep?: (ms: number) => Promise<void>;
  /** 429s in a row before giving up (default 6). */
  maxRateLimited?: number;
  /** How long one request may take before the source counts as unreachable (default 60 s). */
  timeoutMs?: number;
}

export type Query = Record<string, string | number | readonly string[] | undefined>;

/** A 429's wait is bounded: a source asking for longer is asked again after this. */
const MAX_WAIT_MS = 120_000;

export interface SourceHttp {
  /** GET `path` (or an absolute URL the source gave, such as Opsgenie's `paging.next`). */
  get(pathOrUrl: string, query?: Query): Promise<unknown>;
}

// A 429's wait: one timer for one wait, the source's own pace (test/layout lists it).
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function sourceHttp(o: SourceHttpOptions): SourceHttp {
  const doFetch = o.fetch ?? fetch;
  const sleep = o.sleep ?? realSleep;
  const base = o.baseUrl.replace(/\/+$/, '');
  const urlOf = (pathOrUrl: string, query: Query = {}) => {
    const url = new URL(/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`);
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const one of v) url.searchParams.append(k, one);
      else url.searchParams.set(k, String(v));
    }
    return url;
  };
  return {
    async get(pathOrUrl, query) {
      const url = urlOf(pathOrUrl, query);
      for (let limited = 0; ; limited++) {
        let r: Response;
        let text: string;
        try {
          // A source that takes the connection and never answers is unreachable too: the panel's request waits for it, never forever.
          r = await doFetch(url, { headers: { accept: 'application/json', ...o.headers }, signal: AbortSignal.timeout(o.timeoutMs ?? 60_000) });
          text = await r.text();
        } catch (e) {
          throw new SourceError(`${o.source} could not be reached at ${url.origin}: ${e instanceof Error ? e.message : String(e)}`, null);
        }
        if (r.status === 429 && limited < (o.maxRateLimited ?? 6)) {
          await sleep(rateLimitWaitMs(r.headers));
          continue;
        }
        if (!r.ok) throw new SourceError(`${o.source} answered ${r.status}: ${wordsOf(text) ?? r.statusText} (GET ${url.pathname})`, r.status);
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new SourceError(`${o.source} answered ${r.status} with no JSON (GET ${url.pathname})`, r.status);
        }
      }
    },
  };
}

/**
 * How long a 429 asks to wait: `Retry-After` (seconds or a date), PagerDuty's `ratelimit-reset`
 * (seconds), Opsgenie's `X-RateLimit-Period-In-Sec`; else a second. Bounded by MAX_WAIT_MS.
 */
export function rateLimitWaitMs(headers: Headers, now: number = Date.now()): number {
  const seconds = (name: string) => {
    const v = headers.get(name);
    return v !== null && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) * 1000 : null;
  };
  const retryAfter = headers.get('retry-after');
  const dated = retryAfter && !/^\d/.test(retryAfter) ? Date.parse(retryAfter) - now : null;
  const ms = seconds('retry-after') ?? (dated !== null && Number.isFinite(dated) ? Math.max(0, dated) : null) ?? seconds('ratelimit-reset') ?? seconds('x-ratelimit-period-in-sec') ?? 1000;
  return Math.min(ms, MAX_WAIT_MS);
}

/** The source's own words in an error body: Opsgenie's `message`, PagerDuty's `error.message` and `error.errors`. */
function wordsOf(text: string): string | null {
  try {
    const j = JSON.parse(text) as { message?: unknown; error?: { message?: unknown; errors?: unknown } };
    if (typeof j.message === 'string') return j.message;
    if (j.error && typeof j.error.message === 'string') {
      const more = Array.isArray(j.error.errors) && j.error.errors.length ? ` (${j.error.errors.join('; ')})` : '';
      return `${j.error.message}${more}`;
    }
  } catch {
    /* not JSON: the status text is all there is */
  }
  return text.trim() ? text.trim().slice(0, 200) : null;
}
