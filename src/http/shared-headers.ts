import type { Context } from 'elysia';

/**
 * Puts the headers every answer shares (X-Request-Id, Strict-Transport-Security: set by
 * app.ts's onRequest in `set.headers`) onto a route's own Response, and leaves `set.headers`
 * empty. Left in `set.headers`, Elysia copies the Response's headers into new Headers and
 * builds a second Response around its body for every answer (elysia/dist/adapter/utils.mjs,
 * createResponseHandler): ~1 µs and a body turned into a stream, on the webhook's every
 * request (BENCHMARKS.md "The answer built twice"). A header the route set itself wins, as in
 * Elysia's own merge. Cookies, and a Response whose headers cannot change (Response.redirect),
 * are left to Elysia's merge. The Response is changed in place: a route answers with one made
 * for its request, never one kept and shared (which a body read once could not be anyway).
 */
export function sharedHeadersOntoResponse({ response, set }: Pick<Context, 'set'> & { response: unknown }): void {
  if (!(response instanceof Response) || 'set-cookie' in set.headers) return;
  const headers = response.headers;
  try {
    for (const name in set.headers) if (!headers.has(name)) headers.set(name, String(set.headers[name]));
  } catch {
    return; // immutable headers: Elysia's merge copies them
  }
  set.headers = {};
}
