import type { AlertRecord, AlertText, Store } from '../store';
import { callStatusJson } from './call-json';
import { iso } from './iso';

/**
 * The one JSON shape of an alert: the `alert` field of GET /api/alerts/{id} and of the
 * acknowledge/resolve answers, and what `voice-alert alerts show|list --json` prints.
 * Each call is the call status JSON (GET /api/calls/{id}). Fields may be added, never renamed.
 */
export async function alertJson(store: Store, a: AlertRecord) {
  const calls = await store.calls.ofAlert(a.id);
  const [events, texts] = await Promise.all([Promise.all(calls.map((c) => store.calls.events(c.id))), store.textNotices.ofAlert(a.id)]);
  return {
    id: a.id,
    account_id: a.accountId,
    key: a.key,
    source: a.source,
    message: a.message,
    state: a.state,
    state_reason: a.stateReason,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    acknowledged_at: iso(a.acknowledgedAt),
    acknowledged_by: a.acknowledgedBy,
    resolved_at: iso(a.resolvedAt),
    // docs/on-call.md "Maintenance windows": the window that suppressed it (null: none) and until
    // when.
    suppressed_by: a.suppressedBy,
    suppressed_until: iso(a.suppressedUntil),
    labels: a.labels,
    // Contract "Nothing silently calls nobody": why nobody could be called (null: someone was).
    unroutable: a.unroutable,
    calls: calls.map((c, i) => callStatusJson(c, events[i]!)),
    // docs/second-path.md: what a text reply names it by (null: nobody was texted), and each
    // text and e-mail sent or received for it, oldest first.
    short_code: a.shortCode,
    events: texts.map(alertTextJson),
  };
}

/** One text or e-mail of an alert (docs/second-path.md "On the alert"). */
export function alertTextJson(t: AlertText) {
  return { type: t.type, at: iso(t.at), address: t.address, person_id: t.personId, detail: t.detail };
}

export type AlertJson = Awaited<ReturnType<typeof alertJson>>;

/**
 * An alert for the account that owns it; `accountId` null: the administrator (CLI). Another
 * account's alert is null exactly like a missing one, so ids cannot be probed across accounts.
 */
export async function ownAlertJson(store: Store, accountId: string | null, alertId: string): Promise<AlertJson | null> {
  const a = await store.alerts.getInAccount(accountId, alertId);
  return a ? alertJson(store, a) : null;
}

/** The `alert` of every callback event (docs/on-call.md "Callbacks"): who it is, not its calls. */
export function callbackAlertJson(a: AlertRecord) {
  return { id: a.id, key: a.key, state: a.state, source: a.source };
}
