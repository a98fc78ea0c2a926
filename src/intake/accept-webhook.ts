import { DEFAULT_NUMBER_FORMS, normalizePhoneNumber, splitPhoneNumbers } from '../phone/number';
import { readNativeSource } from './native-source';
import { authenticate } from './authenticate';
import { authorize } from './authorize';
import { decodeBody } from './decode-body';
import type { IntakeDeps, IntakeRequest } from './deps';
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

  // The key before the body is parsed: contract rows 3–4 come before row 5.
  const lookups = lookupsFor(deps.store).fresh();
  const authn = authenticate(deps.store, lookups, { kind: 'webhook_key', webhookKey: req.webhookKey?.trim() ?? '' });
  if (!authn.ok) return done({ code: authn.code });
  const cred = authn.credential;
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  const auth = authorize(deps, lookups, authn, { signature: req.signature, signedPayload: req.body }, { endpoint: 'webhook', key: req.idempotencyKey });
  if (!auth.ok) return 'replayed' in auth ? { outcome: auth.replayed, ...who, replayed: true } : done({ code: auth.code });

  const body = decodeBody(req.body, req.contentType);
  if (!body.ok) return done({ code: 'malformed_request' });
  // ── Native sources (issue 14): a tool's own payload becomes the plain fields; see native-source.ts.
  const native = readNativeSource(deps, req, body.fields);
  if (native.kind === 'sns_confirmation') return done(native.outcome);
  body.fields = native.fields;
  // ── end native sources
  const entries = splitPhoneNumbers(body.fields.phone_number);
  const message = textField(body.fields.error_message);
  if (entries.length === 0 || !message) return done({ code: 'missing_fields' });
  if (isMessageTooLong(message)) return done({ code: 'message_too_long' });

  // Duplicates collapse on the number they mean (0532…, +90532… and 532… are one call);
  // an invalid entry can only be a duplicate of itself.
  const unique = new Map<string, { raw: string; number: string | null }>();
  for (const raw of entries) {
    const number = normalizePhoneNumber(raw, deps.numberForms);
    const k = number ?? `raw:${raw}`;
    if (!unique.has(k)) unique.set(k, { raw, number });
  }
  if (unique.size > MAX_WEBHOOK_NUMBERS) return done({ code: 'too_many_numbers' });
  const invalid = [...unique.values()].find((e) => e.number === null);
  if (invalid) return done({ code: 'invalid_phone_number', value: invalid.raw, accepted: deps.numberForms ?? DEFAULT_NUMBER_FORMS });

  const numbers = [...unique.values()].map((e) => e.number!);
  return queueAccepted(deps, 'webhook', auth.account, cred.id, numbers, message, req.idempotencyKey);
}
