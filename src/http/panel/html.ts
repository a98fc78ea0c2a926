/**
 * Every panel page goes out with these headers: no caching (pages hold secrets shown once),
 * no framing, and a CSP that allows only the panel's own script and style files.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function htmlResponse(body: JSX.Element, status = 200, headers: Record<string, string> = {}): Response {
  return new Response('<!doctype html>' + text(body), {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS, ...headers },
  });
}

/** An HTML fragment for htmx (no doctype). */
export function fragmentResponse(body: JSX.Element, status = 200): Response {
  return new Response(text(body), { status, headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS } });
}

/** 303: after a POST the browser follows with a GET, so a reload does not post again. */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });
}

/** The panel's components are all synchronous; an async one would be a bug, not a page. */
function text(body: JSX.Element): string {
  if (typeof body !== 'string') throw new Error('panel views must render synchronously');
  return body;
}
