import { randomUUID } from 'node:crypto';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Every answer has the contract's shape: `{status, message, …extra}` as UTF-8 JSON. */
export function jsonResponse(
  status: number,
  body: { status: 'success' | 'error'; message: string } & Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

export function errorResponse(status: number, message: string, headers?: Record<string, string>): Response {
  return jsonResponse(status, { status: 'error', message }, headers);
}

const ACCEPTABLE_REQUEST_ID = /^[\w.:@\-]{1,128}$/;
const assigned = new WeakMap<Request, string>();

/**
 * The client's X-Request-Id when it is a sane token (it is echoed and logged), else a
 * new one; the same id for every ask about the same request.
 */
export function requestIdFor(request: Request): string {
  let id = assigned.get(request);
  if (!id) {
    const given = request.headers.get('x-request-id');
    id = given && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
    assigned.set(request, id);
  }
  return id;
}
