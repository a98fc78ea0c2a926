import { normalizePhoneNumber, splitPhoneNumbers } from '../phone/number';
import { decodeBody } from './decode-body';
import type { IntakeDeps, IntakeRequest } from './deps';
import { authorize } from './authorize';
import { queueAccepted } from './enqueue';
import { lookupsFor } from './lookup-cache';
import { isMessageTooLong, textField } from './message';
import type { IntakeResult, Outcome } from './outcome';

/** Contract: at most 10 numbers per webhook request, counted after removing duplicates. */
export const MAX_WEBHOOK_NUMBERS = 10;

/**
 * POST /webhook/receive after the rate and size checks, in contract.md's order:
 * key (signature) -> plan -> malformed -> missing -> length -> too many -> invalid number -> credit -> queued.
 */
export async function acceptWebhook(deps: IntakeDeps, req: IntakeRequest): Promise<IntakeResult> {
  const who = { accountId: null as string | null, credentialId: null as string | null };
  const done = (outcome: Outcome): IntakeResult => ({ outcome, ...who, replayed: false });

  const lookups = lookupsFor(deps.store).fresh();
  const key = req.webhookKey?.trim();
  const cred = key ? lookups.credentialByWebhookKey(key) : null;
  if (!key || !cred) return done({ code: 'INVALID_WEBHOOK_KEY' });
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  // The webhook key is the HMAC key here (contract): the body cannot be altered in transit.
  const auth = authorize(deps, lookups, cred, 'webhook', req, () => key);
  if (!auth.ok) return auth.result;

  const body = decodeBody(req.body, req.contentType);
  if (!body.ok) return done({ code: 'MALFORMED' });
  const entries = splitPhoneNumbers(body.fields.phone_number);
  const message = textField(body.fields.error_message);
  if (entries.length === 0 || !message) return done({ code: 'MISSING_FIELDS' });
  if (isMessageTooLong(message)) return done({ code: 'MESSAGE_TOO_LONG' });

  // Duplicates collapse on the number they mean (0532…, +90532… and 532… are one call);
  // an invalid entry can only be a duplicate of itself.
  const unique = new Map<string, { raw: string; number: string | null }>();
  for (const raw of entries) {
    const number = normalizePhoneNumber(raw);
    const k = number ?? `raw:${raw}`;
    if (!unique.has(k)) unique.set(k, { raw, number });
  }
  if (unique.size > MAX_WEBHOOK_NUMBERS) return done({ code: 'TOO_MANY_NUMBERS' });
  const invalid = [...unique.values()].find((e) => e.number === null);
  if (invalid) return done({ code: 'INVALID_PHONE', value: invalid.raw });

  const numbers = [...unique.values()].map((e) => e.number!);
  return queueAccepted(deps, 'webhook', auth.account, cred.id, numbers, message, req.idempotencyKey);
}
