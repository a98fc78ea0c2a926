import { DEFAULT_NUMBER_FORMS, normalizePhoneNumber } from '../phone/number';
import { authenticate } from './authenticate';
import { authorize } from './authorize';
import { decodeBody } from './decode-body';
import type { IntakeDeps, IntakeRequest } from './deps';
import { queueAccepted } from './enqueue';
import { lookupsFor } from './lookup-cache';
import { isMessageTooLong, textField } from './message';
import type { IntakeResult, Outcome } from './outcome';
import { isSigned } from './signature';

/**
 * POST /api/call after the rate and size checks, in contract.md's order:
 * malformed -> missing fields -> credentials (signature) -> plan -> length -> number -> credit -> queued.
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
  const signed = isSigned(req.signature);
  // A signed request proves the secret without sending it, so it may leave api_secret out.
  // Fields before credentials: contract row 4 comes before row 5.
  if (!apiKey || (!apiSecret && !signed) || !phone || !message) return done({ code: 'missing_fields' });

  const lookups = lookupsFor(deps.store).fresh();
  const authn = authenticate(
    deps.store,
    lookups,
    apiSecret ? { kind: 'api_secret', apiKey, apiSecret } : { kind: 'api_signature', apiKey },
  );
  if (!authn.ok) return done({ code: authn.code });
  const cred = authn.credential;
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  const auth = authorize(deps, lookups, authn, { signature: req.signature, signedPayload: req.body }, { endpoint: 'api', key: req.idempotencyKey });
  if (!auth.ok) return 'replayed' in auth ? { outcome: auth.replayed, ...who, replayed: true } : done({ code: auth.code });

  if (isMessageTooLong(message)) return done({ code: 'message_too_long' });
  const number = normalizePhoneNumber(phone, deps.numberForms);
  if (!number) return done({ code: 'invalid_phone_number', accepted: deps.numberForms ?? DEFAULT_NUMBER_FORMS });
  return queueAccepted(deps, 'api', auth.account, cred.id, [number], message, req.idempotencyKey);
}
