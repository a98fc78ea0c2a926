import { DEFAULT_NUMBER_FORMS, normalizePhoneNumber, splitPhoneNumbers } from '../phone';
import { alertFields, isAlertKeyTooLong } from './alert-fields';
import { readNativeSource } from './native-source';
import { authenticate } from './authenticate';
import { authorize } from './authorize';
import { decodeBody } from './decode-body';
import type { IntakeDeps, IntakeRequest } from './deps';
import { queueAccepted, resolveAccepted } from './enqueue';
import { lookupsFor } from './lookup-cache';
import { missingFields } from './missing-fields';
import { isMessageTooLong, textField } from './message';
import type { IntakeResult, Outcome } from './outcome';
import { choosePolicy, hasDefaultPolicy } from './policy-choice';

/** Contract: at most 10 numbers per webhook request, counted after removing duplicates. */
export const MAX_WEBHOOK_NUMBERS = 10;

/**
 * POST /webhook/receive after the rate and size checks, in the order of its table
 * in docs/http-api.md: key (signature) -> plan -> malformed -> missing -> length -> key length ->
 * too many -> invalid number -> credit -> queued. A resolve (`status: resolved`): key -> plan ->
 * malformed -> missing alert_key -> key length -> resolved.
 */
export async function acceptWebhook(deps: IntakeDeps, req: IntakeRequest): Promise<IntakeResult> {
  const who = { accountId: null as string | null, credentialId: null as string | null };
  const done = (outcome: Outcome): IntakeResult => ({ outcome, ...who, replayed: false });

  // The key before the body is parsed: in its table in docs/http-api.md the key and plan rows
  // come before `Malformed request`.
  const lookups = await lookupsFor(deps.store).fresh();
  const authn = await authenticate(deps.store, lookups, { kind: 'webhook_key', webhookKey: req.webhookKey?.trim() ?? '' });
  if (!authn.ok) return done({ code: authn.code });
  const cred = authn.credential;
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  const auth = await authorize(deps, lookups, authn, { signature: req.signature, signedPayload: req.body }, { endpoint: 'webhook', key: req.idempotencyKey });
  if (!auth.ok) return 'replayed' in auth ? { outcome: auth.replayed, ...who, replayed: true } : done({ code: auth.code, reason: auth.reason });

  const body = decodeBody(req.body, req.contentType);
  if (!body.ok) return done({ code: 'malformed_request' });
  // ── Native sources (issue 14): a tool's own payload becomes the plain fields; see native-source.ts.
  const native = readNativeSource(deps, req, body.fields);
  if (native.kind === 'sns_confirmation') return done(native.outcome);
  body.fields = native.fields;
  // ── end native sources
  const alert = alertFields(body.fields, req.policy ?? null);
  if (alert.resolve) {
    // Numbers and text may be absent: a resolve names its alert by key and calls nobody.
    if (alert.key === null) return done({ code: 'missing_fields', missing: ['alert_key'] });
    if (isAlertKeyTooLong(alert.key)) return done({ code: 'alert_key_too_long' });
    return resolveAccepted(deps, 'webhook', auth.account, cred.id, alert.key, req.idempotencyKey, auth.signedOnce);
  }
  const entries = splitPhoneNumbers(body.fields.phone_number);
  const message = textField(body.fields.error_message);
  // Under a policy (named, or the key's default) the numbers may be left out.
  const underPolicy = alert.policy !== null || hasDefaultPolicy(cred);
  if ((entries.length === 0 && !underPolicy) || !message) {
    return done({ code: 'missing_fields', missing: missingFields({ phone_number: entries.length > 0, error_message: message }) });
  }
  if (isMessageTooLong(message)) return done({ code: 'message_too_long' });
  if (isAlertKeyTooLong(alert.key)) return done({ code: 'alert_key_too_long' });

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
  const choice = await choosePolicy(deps.store, auth.account.id, cred, alert.policy, numbers);
  if (!choice.ok) return done({ code: choice.code });
  return queueAccepted(deps, 'webhook', auth.account, cred.id, {
    phoneNumbers: numbers,
    message,
    alertKey: alert.key,
    idempotencyKey: req.idempotencyKey,
    escalation: choice.escalation,
    signedOnce: auth.signedOnce,
    origin: native.origin,
  }, lookups);
}
