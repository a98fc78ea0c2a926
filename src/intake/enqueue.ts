import type { Clock } from '../clock';
import { periodOf } from '../credit';
import type { Account, CallSource, Store } from '../store';
import type { IntakeDeps } from './deps';
import type { IntakeEndpoint, IntakeResult, Outcome } from './outcome';

export interface EnqueueRequest {
  endpoint: IntakeEndpoint;
  accountId: string;
  /** The account's credit per period, as read when the request was authorised. */
  monthlyCredit: number;
  credentialId: string;
  phoneNumbers: string[];
  message: string;
  idempotencyKey: string | null;
}

/**
 * Charges credit and queues the calls in one durable transaction, all or nothing.
 * Runs inside the group commit, so concurrent requests are applied one after another:
 * of many racing for the last credit, exactly one wins. Resolves only after COMMIT.
 */
export function enqueueCalls(
  store: Store,
  clock: Clock,
  timeZone: string,
  req: EnqueueRequest,
): Promise<{ outcome: Outcome; replayed: boolean }> {
  return store.writes.run(() => {
    const now = clock();
    if (req.idempotencyKey) {
      // Checked again inside the transaction: two copies racing in one batch queue once.
      const earlier = store.idempotency.find(req.credentialId, req.endpoint, req.idempotencyKey, now);
      if (earlier) return { outcome: earlier as Outcome, replayed: true };
    }
    const period = periodOf(now, timeZone);
    // Check and charge in one statement inside the transaction: of requests racing for the
    // last credit, one wins. Charged before the calls are inserted, so a refusal costs no
    // insert; the savepoint around this write still makes the pair all or nothing.
    if (!store.usage.tryCharge(req.accountId, period, req.phoneNumbers.length, req.monthlyCredit)) {
      return { outcome: { code: 'insufficient_credit' }, replayed: false };
    }
    const source: CallSource = req.endpoint;
    const callIds = store.calls.enqueue(
      req.phoneNumbers.map((phoneNumber) => ({
        accountId: req.accountId,
        credentialId: req.credentialId,
        source,
        phoneNumber,
        message: req.message,
      })),
      now,
    );
    const outcome: Outcome = { code: 'QUEUED', callIds, endpoint: req.endpoint };
    if (req.idempotencyKey) store.idempotency.save(req.credentialId, req.endpoint, req.idempotencyKey, outcome, now);
    return { outcome, replayed: false };
  });
}

/** The last step of both endpoints: queue durably, wake the dialer, answer with who asked. */
export async function queueAccepted(
  deps: IntakeDeps,
  endpoint: IntakeEndpoint,
  account: Account,
  credentialId: string,
  phoneNumbers: string[],
  message: string,
  idempotencyKey: string | null,
): Promise<IntakeResult> {
  const r = await enqueueCalls(deps.store, deps.clock, deps.timeZone, {
    endpoint,
    accountId: account.id,
    monthlyCredit: account.monthlyCredit,
    credentialId,
    phoneNumbers,
    message,
    idempotencyKey,
  });
  if (r.outcome.code === 'QUEUED' && !r.replayed) deps.onQueued?.(r.outcome.callIds);
  return { outcome: r.outcome, accountId: account.id, credentialId, replayed: r.replayed };
}
