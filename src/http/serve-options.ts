import { randomUUID } from 'node:crypto';
import { errorResponse } from './respond';

/**
 * How the HTTP server is started, everywhere: production mode always. In development mode
 * Bun answers a failure it catches itself (an unparseable URL, a throw outside Elysia's
 * handlers) with a 146 KB HTML page holding the stack, the working directory and source
 * lines, and prints the request URL, webhook `?key=` included, to stderr (issue 10 §2).
 * `error` is Bun's last resort, reached only when Elysia's own onError failed: it still
 * answers the JSON 500 every other failure gets (docs/http-api.md: status and message).
 */
export function serveOptions(o: { hostname: string; port: number; maxRequestBodySize: number }) {
  return {
    ...o,
    development: false,
    error: () => errorResponse('internal_error', { headers: { 'x-request-id': randomUUID() } }),
  };
}
