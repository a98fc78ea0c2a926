import type { Clock } from '../clock';
import type { ErrorCode } from '../errors';
import { isMessageTooLong } from '../intake/message';
import { normalizePhoneNumber, type NumberForm } from '../phone/number';
import type { Store } from '../store';

export type TestCallResult =
  | { ok: true; callId: string }
  /** Codes of the error catalogue (src/errors): the panel words them, the API would answer them. */
  | { ok: false; code: Extract<ErrorCode, 'invalid_phone_number' | 'missing_fields' | 'message_too_long' | 'account_disabled'> };

export interface TestCallInput {
  accountId: string;
  /** As typed; any form the API accepts. */
  phoneNumber: string;
  message: string;
}

/**
 * Test calls an account's owner or the administrator queue to check the line: source
 * 'test', no credential, and no credit charged (checking the line is not spending the
 * customer's calls). They go through the queue and the dialer like any other call.
 */
export interface TestCallsService {
  place(input: TestCallInput): Promise<TestCallResult>;
}

export interface TestCallsDeps {
  store: Store;
  clock: Clock;
  /** Told the ids once they are committed, so the dialer looks at once instead of at its next poll. */
  onQueued?: (callIds: string[]) => void;
  /** numbers.accept (absent: tr-mobile). */
  numberForms?: readonly NumberForm[];
}

export function createTestCallsService({ store, clock, onQueued, numberForms }: TestCallsDeps): TestCallsService {
  return {
    async place(input) {
      const phone = normalizePhoneNumber(input.phoneNumber.trim(), numberForms);
      if (!phone) return { ok: false, code: 'invalid_phone_number' };
      const message = input.message.trim();
      if (!message) return { ok: false, code: 'missing_fields' };
      if (isMessageTooLong(message)) return { ok: false, code: 'message_too_long' };
      const result = await store.writes.run((): TestCallResult => {
        const account = store.accounts.get(input.accountId);
        if (!account || account.disabled) return { ok: false, code: 'account_disabled' };
        const [callId] = store.calls.enqueue(
          [{ accountId: input.accountId, credentialId: null, source: 'test', phoneNumber: phone, message }],
          clock(),
        );
        return { ok: true, callId: callId! };
      });
      if (result.ok) onQueued?.([result.callId]);
      return result;
    },
  };
}
