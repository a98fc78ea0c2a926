import type { Clock } from '../clock';
import { isMessageTooLong } from '../intake/message';
import { normalizePhoneNumber } from '../phone/number';
import type { Store } from '../store';

export type TestCallResult =
  | { ok: true; callId: string }
  | { ok: false; code: 'INVALID_NUMBER' | 'MESSAGE_REQUIRED' | 'MESSAGE_TOO_LONG' | 'ACCOUNT_DISABLED' };

/**
 * Queues a call from the panel's test page: source 'test', no credential, and no credit
 * charged (the operator is checking the line, not spending the customer's calls).
 */
export async function placeTestCall(
  store: Store,
  clock: Clock,
  input: { accountId: string; phoneNumber: string; message: string },
): Promise<TestCallResult> {
  const phone = normalizePhoneNumber(input.phoneNumber.trim());
  if (!phone) return { ok: false, code: 'INVALID_NUMBER' };
  const message = input.message.trim();
  if (!message) return { ok: false, code: 'MESSAGE_REQUIRED' };
  if (isMessageTooLong(message)) return { ok: false, code: 'MESSAGE_TOO_LONG' };
  return store.writes.run((): TestCallResult => {
    const account = store.accounts.get(input.accountId);
    if (!account || account.disabled) return { ok: false, code: 'ACCOUNT_DISABLED' };
    const [callId] = store.calls.enqueue(
      [{ accountId: input.accountId, credentialId: null, source: 'test', phoneNumber: phone, message }],
      clock(),
    );
    return { ok: true, callId: callId! };
  });
}
