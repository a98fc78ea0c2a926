import { iso } from './iso';

export interface CallbackHead {
  eventId: string;
  type: string;
  at: number;
  accountId: string;
}

/**
 * The body of one callback POST (docs/on-call.md "Callbacks"): `id`, `type`, `at`, `account_id`,
 * then the event's own fields. The head is spread twice: first for the key order, last so an
 * event's details never overwrite it.
 */
export function callbackBody(h: CallbackHead, fields: Record<string, unknown>): string {
  const head = { id: h.eventId, type: h.type, at: iso(h.at), account_id: h.accountId };
  return JSON.stringify({ ...head, ...fields, ...head });
}
