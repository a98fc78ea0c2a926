/**
 * The path of a request's URL (no query). The one place it is taken from `request.url`, so
 * a request whose URL cannot be parsed (a missing Host header) is handled here alone.
 */
export function requestPath(request: Request): string {
  return new URL(request.url).pathname;
}
