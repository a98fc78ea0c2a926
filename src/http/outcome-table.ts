import type { Outcome } from '../intake';

/**
 * contract.md's status and message for each intake outcome: the one place they live.
 */
export function describeOutcome(o: Outcome): { status: number; body: { status: 'success' | 'error'; message: string } & Record<string, unknown> } {
  const error = (status: number, message: string) => ({ status, body: { status: 'error' as const, message } });
  switch (o.code) {
    case 'MALFORMED':
      return error(400, 'Malformed request');
    case 'MISSING_FIELDS':
      return error(400, 'Missing fields');
    case 'INVALID_API_CREDENTIALS':
      return error(403, 'Invalid API credentials');
    case 'INVALID_WEBHOOK_KEY':
      return error(403, 'Invalid webhook key');
    case 'INVALID_SIGNATURE':
      return error(403, 'Invalid signature');
    case 'SIGNATURE_REQUIRED':
      return error(403, 'Signature required');
    case 'PLAN_REFUSED':
      return error(403, 'Your plan does not allow API/webhook access');
    case 'MESSAGE_TOO_LONG':
      return error(400, 'Message too long (max 500 characters)');
    case 'TOO_MANY_NUMBERS':
      return error(400, 'Too many phone numbers (max 10)');
    case 'INVALID_PHONE':
      return error(400, o.value === undefined ? 'Invalid phone number' : `Invalid phone number: ${o.value}`);
    case 'INSUFFICIENT_CREDIT':
      return error(402, 'Insufficient call credit');
    case 'QUEUED':
      return o.endpoint === 'api'
        ? { status: 200, body: { status: 'success', message: 'Call queued', call_id: o.callIds[0] } }
        : {
            status: 200,
            body: { status: 'success', message: `${o.callIds.length} call(s) queued`, call_ids: o.callIds },
          };
  }
}

/** Statuses and messages of the HTTP edge itself (before or beside the intake). */
export const EDGE = {
  rateLimited: { status: 429, message: 'Rate limit exceeded' },
  bodyTooLarge: { status: 413, message: 'Request body too large' },
  notFound: { status: 404, message: 'Not found' },
  methodNotAllowed: { status: 405, message: 'Method not allowed' },
  internal: { status: 500, message: 'Internal error' },
} as const;
