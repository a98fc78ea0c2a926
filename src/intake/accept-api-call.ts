import { DEFAULT_NUMBER_FORMS, normalizePhoneNumber } from '../phone';
import { alertFields, isAlertKeyTooLong } from './alert-fields';
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
import { isSigned } from '../signing';

/**
 * POST /api/call after the rate and size checks, in the order of its table in docs/http-api.md:
 * malformed -> missing fields -> credentials (signature) -> plan -> length -> key length -> number -> credit -> queued.
 * A resolve (`status: resolved`) needs only the credentials and `alert_key`:
 * malformed -> missing fields -> credentials -> plan -> key length -> resolved.
 */
export async function acceptApiCall(deps: IntakeDeps, req: IntakeRequest): Promise<IntakeResult> {
  const who = { accountId: null as string | null, credentialId: null as string | null };
  const done = (outcome: Outcome): IntakeResult => ({ outcome, ...who, replayed: false });

  const body = decodeBody(req.body, req.contentType);
  if (!body.ok) return done({ code: 'malformed_request' });
  const f = body.fields;
  const apiKey = textField(f.api_key);
  const apiSecret = textField(f.api_secret);
  const phone = textField(f.phone_number);
  const message = textField(f.error_message);
  const alert = alertFields(f, req.policy ?? null);
  const signed = isSigned(req.signature);
  // A signed request proves the secret without sending it, so it may leave api_secret out.
  // Fields before credentials: `Missing fields` comes before `Invalid API credentials` in its
  // table in docs/http-api.md. A resolve names its alert by key and may leave the number and
  // text out (docs/http-api.md "Alerts: dedupe and resolve"); under a policy (named, or the key's
  // default) phone_number may be left out.
  // (The key's default is looked up only when the number is missing: plain requests pay nothing.)
  const underPolicy = alert.policy !== null || (!phone && !!apiKey && (await defaultPolicyOfKey(deps, apiKey)));
  const missing = missingFields({
    api_key: apiKey,
    api_secret: apiSecret || signed,
    ...(alert.resolve ? { alert_key: alert.key } : { phone_number: phone || underPolicy, error_message: message }),
  });
  // (The repeated test only narrows the type for what follows; `missing` decides.)
  if (missing.length > 0 || !apiKey) return done({ code: 'missing_fields', missing });

  const lookups = await lookupsFor(deps.store).fresh();
  const authn = await authenticate(
    deps.store,
    lookups,
    apiSecret ? { kind: 'api_secret', apiKey, apiSecret } : { kind: 'api_signature', apiKey },
  );
  if (!authn.ok) return done({ code: authn.code });
  const cred = authn.credential;
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  const auth = await authorize(deps, lookups, authn, { signature: req.signature, signedPayload: req.body }, { endpoint: 'api', key: req.idempotencyKey });
  if (!auth.ok) return 'replayed' in auth ? { outcome: auth.replayed, ...who, replayed: true } : done({ code: auth.code, reason: auth.reason });

  if (alert.resolve) {
    if (isAlertKeyTooLong(alert.key)) return done({ code: 'alert_key_too_long' });
    return resolveAccepted(deps, 'api', auth.account, cred.id, alert.key!, req.idempotencyKey, auth.signedOnce);
  }
  if (isMessageTooLong(message)) return done({ code: 'message_too_long' });
  if (isAlertKeyTooLong(alert.key)) return done({ code: 'alert_key_too_long' });
  const number = phone ? normalizePhoneNumber(phone, deps.numberForms) : null;
  if (phone && !number) return done({ code: 'invalid_phone_number', accepted: deps.numberForms ?? DEFAULT_NUMBER_FORMS });
  const numbers = number ? [number] : [];
  const choice = await choosePolicy(deps.store, auth.account.id, cred, alert.policy, numbers);
  if (!choice.ok) return done({ code: choice.code });
  return queueAccepted(deps, 'api', auth.account, cred.id, {
    phoneNumbers: numbers,
    message,
    alertKey: alert.key,
    idempotencyKey: req.idempotencyKey,
    escalation: choice.escalation,
    signedOnce: auth.signedOnce,
  }, lookups);
}

/**
 * Whether this API key's credential follows a default policy: read before the credentials are
 * checked only to know if a missing phone_number is allowed; it answers nothing by itself.
 */
async function defaultPolicyOfKey(deps: IntakeDeps, apiKey: string): Promise<boolean> {
  const cred = await (await lookupsFor(deps.store).fresh()).credentialByApiKey(apiKey);
  return cred !== null && hasDefaultPolicy(cred);
}
