import { normalizePhoneNumber } from '../phone/number';
import { secretMatches } from './credential-check';
import { decodeBody } from './decode-body';
import type { IntakeDeps, IntakeRequest } from './deps';
import { authorize } from './authorize';
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
  if (!body.ok) return done({ code: 'MALFORMED' });
  const f = body.fields;
  const apiKey = textField(f.api_key);
  const apiSecret = textField(f.api_secret);
  const phone = textField(f.phone_number);
  const message = textField(f.error_message);
  const signed = isSigned(req.signature);
  // A signed request proves the secret without sending it, so it may leave api_secret out.
  if (!apiKey || (!apiSecret && !signed) || !phone || !message) return done({ code: 'MISSING_FIELDS' });

  const lookups = lookupsFor(deps.store).fresh();
  const cred = lookups.credentialByApiKey(apiKey);
  if (!cred || (apiSecret && !secretMatches(cred, apiSecret))) return done({ code: 'INVALID_API_CREDENTIALS' });
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  const auth = authorize(deps, lookups, cred, 'api', req, () => deps.store.credentials.apiSecretOf(cred.id)!);
  if (!auth.ok) return auth.result;

  if (isMessageTooLong(message)) return done({ code: 'MESSAGE_TOO_LONG' });
  const number = normalizePhoneNumber(phone);
  if (!number) return done({ code: 'INVALID_PHONE' });
  return queueAccepted(deps, 'api', auth.account, cred.id, [number], message, req.idempotencyKey);
}
