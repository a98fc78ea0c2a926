import type { Clock } from '../clock';
import { periodOf } from '../credit';
import type { ErrorCode } from '../errors';
import { isMessageTooLong } from '../intake/message';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import type { PanelRole, Store } from '../store';

export type TestCallRefusal = Extract<
  ErrorCode,
  | 'invalid_phone_number'
  | 'missing_fields'
  | 'message_too_long'
  | 'account_disabled'
  | 'no_trunk'
  | 'number_not_allowed'
  | 'rate_limited'
  | 'insufficient_credit'
>;

export type TestCallResult =
  | { ok: true; callId: string; alertId: string }
  /** Codes of the error catalogue (src/errors): the panel words them, the API would answer them. */
  | { ok: false; code: TestCallRefusal };

export interface TestCallInput {
  accountId: string;
  /** As typed; any form the API accepts. */
  phoneNumber: string;
  message: string;
  /** Who places it: an owner's test call is a customer's call (charged, limited); an administrator's is not. */
  role: PanelRole;
}

/**
 * Test calls from the panel, to check the line. They go through the queue and the dialer
 * like any other call, each with its own alert (source 'test'). An administrator's are free
 * and go anywhere. An owner's are the account's calls like any other, so that a panel login
 * cannot become free, unlimited calls to anywhere (toll fraud through the trunk):
 *   - they cost one credit (refused with insufficient_credit when none is left);
 *   - they go only to a number this account has called before (an API or webhook call, or
 *     an administrator's test call for the account, which is how a new number is allowed);
 *   - at most `perWindow` per account in `windowMs` (rate_limited).
 * With no SIP trunk nothing could ring: refused (no_trunk), like the CLI's test-call.
 */
export interface TestCallsService {
  place(input: TestCallInput): Promise<TestCallResult>;
}

export interface TestCallsOptions {
  /** The credit period's time zone (credit.timezone). */
  timeZone: string;
  /** False when sip.server is empty: nothing would ever dial the call. */
  trunkConfigured(): boolean;
  /** Default 3 per 10 minutes. */
  perWindow?: number;
  windowMs?: number;
}

export interface TestCallsDeps {
  store: Store;
  clock: Clock;
  /** Told the ids once they are committed, so the dialer looks at once instead of at its next poll. */
  onQueued?: (callIds: string[]) => void;
  /** Absent (the CLI, which dials its own test calls): every test call is refused as no_trunk. */
  testCalls?: TestCallsOptions;
  /** numbers.accept (absent: tr-mobile). */
  numberForms?: readonly NumberForm[];
}

export function createTestCallsService({ store, clock, onQueued, testCalls: options, numberForms }: TestCallsDeps): TestCallsService {
  const perWindow = options?.perWindow ?? 3;
  const windowMs = options?.windowMs ?? 10 * 60_000;
  return {
    async place(input) {
      const phone = normalizePhoneNumber(input.phoneNumber.trim(), numberForms);
      if (!phone) return { ok: false, code: 'invalid_phone_number' };
      const message = input.message.trim();
      if (!message) return { ok: false, code: 'missing_fields' };
      if (isMessageTooLong(message)) return { ok: false, code: 'message_too_long' };
      if (!options?.trunkConfigured()) return { ok: false, code: 'no_trunk' };
      const owner = input.role !== 'admin';
      // Checked and written in one transaction: racing test calls cannot all pass the rate
      // or the last credit. On PostgreSQL transactions run side by side (and on several
      // appliances): the account's key makes them take their turn before the checks.
      const result = await store.transaction(async (tx): Promise<TestCallResult> => {
        await tx.serializeOn(`test-calls/${input.accountId}`);
        const account = await tx.accounts.get(input.accountId);
        if (!account || account.disabled) return { ok: false, code: 'account_disabled' };
        const now = clock();
        if (owner) {
          if (!(await tx.panelQueries.hasCalled(account.id, phone))) return { ok: false, code: 'number_not_allowed' };
          if ((await tx.panelQueries.testCallsSince(account.id, now - windowMs)) >= perWindow) return { ok: false, code: 'rate_limited' };
          if (!(await tx.usage.tryCharge(account.id, periodOf(now, options.timeZone), 1, account.monthlyCredit))) {
            return { ok: false, code: 'insufficient_credit' };
          }
        }
        const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key: null, source: 'test', message }, now);
        const [callId] = await tx.calls.enqueue(
          [{ accountId: account.id, credentialId: null, source: 'test', phoneNumber: phone, message, alertId, charged: owner }],
          now,
        );
        return { ok: true, callId: callId!, alertId };
      });
      if (result.ok) onQueued?.([result.callId]);
      return result;
    },
  };
}
