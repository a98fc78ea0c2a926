import { metrics } from '../metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts every answer in voice_alert_http_requests_total. Elysia's afterResponse hook sees
 * a handler's returned Response, but not the one onError built, so onError notes its
 * status here first. The endpoint is the route pattern ("unmatched" for a 404), and an
 * odd method is "other": a scanner's paths and verbs must not make new series.
 */
export function createRequestCounter() {
  const errorStatus = new WeakMap<Request, number>();
  return {
    /** Call with the Response onError returns. */
    noteError(request: Request, response: Response): Response {
      errorStatus.set(request, response.status);
      return response;
    },
    count(input: { request: Request; route?: string; set: { status?: number | string }; responseValue?: unknown }) {
      const { request, route, set, responseValue } = input;
      const status =
        responseValue instanceof Response ? responseValue.status : (errorStatus.get(request) ?? (typeof set.status === 'number' ? set.status : 200));
      metrics.httpRequests.inc({
        endpoint: route || 'unmatched',
        method: METHODS.has(request.method) ? request.method : 'other',
        status: String(status),
      });
    },
  };
}
