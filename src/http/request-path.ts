const parsed = new WeakMap<Request, URL | null>();

/**
 * A request's URL, or null when it cannot be parsed (an unparseable Host: Bun builds
 * `http://<host><target>` from it). HTTP/1.0 has no Host header (RFC 1945; RFC 9112 §3.2
 * makes it mandatory only for 1.1, which Bun enforces itself): Bun then hands over the bare
 * target (`/api/calls/…`), which is read against a placeholder origin. The one place
 * `request.url` is parsed, so no caller can throw on it.
 */
export function requestUrl(request: Request): URL | null {
  if (parsed.has(request)) return parsed.get(request)!;
  let url: URL | null = null;
  try {
    url = new URL(request.url);
  } catch {
    // A relative target is fine only when no Host was sent at all; "Host: a b" is also
    // turned into a relative URL by Bun, and is a client error.
    if (request.url.startsWith('/') && !request.headers.has('host')) url = new URL(request.url, 'http://localhost');
  }
  parsed.set(request, url);
  return url;
}

/** The path of a request's URL (no query); `/` for one that cannot be parsed. */
export function requestPath(request: Request): string {
  return requestUrl(request)?.pathname ?? '/';
}
