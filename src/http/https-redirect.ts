import { errorResponse, requestIdFor } from './respond';
import { requestUrl } from './request-path';

/** `/panel` and everything under it: what http.plain_listen sends to HTTPS. */
export function isPanelPath(pathname: string): boolean {
  return pathname === '/panel' || pathname.startsWith('/panel/');
}

/**
 * The same path and query on the HTTPS address (docs/https.md "HTTPS":
 * on http.plain_listen the panel answers a redirect). The host is panel.public_url's when it
 * is an https URL, else the one the browser asked for, with the HTTPS port. 307, not 308: a
 * browser caches a permanent redirect, and the configuration may change; the lasting
 * instruction to use HTTPS is HSTS (http.hsts, RFC 6797).
 */
export function httpsRedirect(request: Request, httpsPort: number, publicUrl: string): Response {
  const url = requestUrl(request);
  if (!url) return errorResponse('malformed_request', { headers: { 'x-request-id': requestIdFor(request) } });
  const base = publicUrl.startsWith('https://')
    ? publicUrl.replace(/\/+$/, '')
    : `https://${url.hostname}${httpsPort === 443 ? '' : `:${httpsPort}`}`;
  return new Response(null, {
    status: 307,
    headers: { location: `${base}${url.pathname}${url.search}`, 'x-request-id': requestIdFor(request) },
  });
}
