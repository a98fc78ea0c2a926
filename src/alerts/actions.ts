import type { Clock } from '../clock';
import type { AlertRecord, Store, Tx } from '../store';
import { acknowledgeAlert, resolveAlert, type AlertLifecycleDeps } from './lifecycle';

export type AlertActionResult =
  | { ok: true; alert: AlertRecord; cancelledCallIds: string[]; changed: boolean }
  | { ok: false; code: 'alert_not_found' };

/**
 * What people do to an alert by hand (the API, the CLI, the panel), each one durable
 * transaction. Acting on a closed alert is not an error: it answers the alert as it is
 * (`changed: false`), since acknowledgements and resolves arrive late or twice.
 * An alert of another account is not found, exactly like a missing one.
 */
export interface AlertActions {
  acknowledge(accountId: string | null, alertId: string, by: string): Promise<AlertActionResult>;
  resolve(accountId: string | null, alertId: string, by: string): Promise<AlertActionResult>;
  /** `status: resolved` with a key: closes the account's open alert of that key, if any. */
  resolveByKey(accountId: string, key: string, by: string): Promise<{ alert: AlertRecord | null; cancelledCallIds: string[] }>;
}

export interface AlertActionsDeps {
  store: Store;
  clock: Clock;
  /** credit.timezone: refunds go back to the period of the charge. */
  timeZone: string;
}

export function createAlertActions(d: AlertActionsDeps): AlertActions {
  const lifecycle = (tx: Tx): AlertLifecycleDeps => ({ store: tx, timeZone: d.timeZone });
  /** accountId null: the administrator (CLI), who may act on any account's alert. */
  const find = (tx: Tx, accountId: string | null, alertId: string) => tx.alerts.getInAccount(accountId, alertId);
  const act = (accountId: string | null, alertId: string, close: (tx: Tx, a: AlertRecord, now: number) => ReturnType<typeof resolveAlert>) =>
    d.store.transaction(async (tx): Promise<AlertActionResult> => {
      const alert = await find(tx, accountId, alertId);
      if (!alert) return { ok: false, code: 'alert_not_found' };
      const r = await close(tx, alert, d.clock());
      return { ok: true, alert: r.alert, cancelledCallIds: r.cancelledCallIds, changed: r.closed };
    });
  return {
    acknowledge: (accountId, alertId, by) => act(accountId, alertId, (tx, a, now) => acknowledgeAlert(lifecycle(tx), a, by, now)),
    resolve: (accountId, alertId, by) => act(accountId, alertId, (tx, a, now) => resolveAlert(lifecycle(tx), a, by, now)),
    resolveByKey: (accountId, key, by) => d.store.transaction((tx) => resolveOpenAlertByKey(lifecycle(tx), accountId, key, d.clock(), by)),
  };
}

/**
 * The body of `resolveByKey`, for a caller that already is inside a transaction
 * (`store.transaction`, whose `tx` is `d.store`) and needs other writes in the same one
 * (the intake saves the Idempotency-Key answer beside it).
 */
export async function resolveOpenAlertByKey(
  d: AlertLifecycleDeps,
  accountId: string,
  key: string,
  now: number,
  by: string,
): Promise<{ alert: AlertRecord | null; cancelledCallIds: string[] }> {
  const alert = await d.store.alerts.findOpen(accountId, key);
  if (!alert) return { alert: null, cancelledCallIds: [] };
  const r = await resolveAlert(d, alert, by, now);
  return { alert: r.alert, cancelledCallIds: r.cancelledCallIds };
}
