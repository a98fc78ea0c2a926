import { randomUUID } from 'node:crypto';
import { errorBody, errorFor, type ErrorCode } from '../errors';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Every answer has docs/http-api.md's shape: `{status, message, …extra}` as UTF-8 JSON. */
export function jsonResponse(
  status: number,
  body: { status: 'success' | 'error'; message: string } & Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': JSON_TYPE, ...headers } });
}

/**
 * An error answer from the catalogue: its status, and `{status:'error', message, code}`.
 * `detail` follows the message (the webhook's `Invalid phone number: <value>`).
 */
export function errorResponse(code: ErrorCode, options: { detail?: string; headers?: Record<string, string> } = {}): Response {
  return jsonResponse(errorFor(code).status, errorBody(code, options.detail), options.headers);
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
