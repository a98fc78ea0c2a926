import { FAILED_STATES, type CallState } from '../call-model';
import { callbackAlertJson, callbackBody, callbackCallJson, selfTestJson } from '../outward';
import { newId } from '../ids';
import type { AlertRecord, CallRecord, SelfTestRecord, Tx } from '../store';

/**
 * The events an account's callback_url receives (docs/on-call.md "Callbacks").
 *
 * Body (JSON, stored once, the same bytes on every retry):
 *   { "id": "evt_…", "type": "alert.acknowledged", "at": "2026-01-01T00:00:00.000Z",
 *     "account_id": "acc_…",
 *     "alert": { "id": "alt_…", "key": "db-down" | null, "state": "acknowledged", "source": "api" },
 *     "call":  { "id": "call_…", "number": "5321234567", "state": "acknowledged",
 *                "attempts": 1, "sip_code": 200, "reason": null },          (call.* only)
 *     "acknowledged_by": "5321234567" }                                     (*.acknowledged only)
 * `alert.state` is the alert's state when the event was written: a `call.acknowledged`
 * still shows `open`, and its `alert.acknowledged` follows it.
 * An emitter may add its own fields (alert.escalated: the step), never overwriting these.
 */
/** `alert.unroutable`: nobody could be called for it (docs/on-call.md "Nothing silently calls nobody"): `reason`, and the `fallback` called (null: none). */
export type AlertEventType = 'alert.escalated' | 'alert.acknowledged' | 'alert.resolved' | 'alert.unacknowledged' | 'alert.unroutable';
export type CallEventType = 'call.answered' | 'call.acknowledged' | 'call.failed' | 'call.voicemail';
export type TrunkEventType = 'trunk.down' | 'trunk.up';
/** docs/on-call.md "On-call schedules": the on-call person of a schedule changed. */
export type OncallEventType = 'oncall.changed';
/** docs/telephony.md "Voice-path self-test": a self-test failed, or passed after a failure. */
export type SelfTestEventType = 'selftest.failed' | 'selftest.passed';
/** docs/second-path.md "On the alert": a text or e-mail to a person reached by an alert. */
export type TextEventType = 'sms.sent' | 'sms.failed' | 'email.sent';
export type CallbackEventType = AlertEventType | CallEventType | TrunkEventType | OncallEventType | SelfTestEventType | TextEventType;

/** The call event a call's edge to `to` causes, if any. */
export function callEventFor(to: CallState): CallEventType | null {
  if (to === 'answered') return 'call.answered';
  if (to === 'acknowledged') return 'call.acknowledged';
  if (to === 'voicemail') return 'call.voicemail';
  // Not `completed`: `call.answered` said so, and the alert's own event tells whether anyone
  // acknowledged; not `cancelled`: the alert's `alert.*` event says how it was closed.
  return FAILED_STATES.includes(to) ? 'call.failed' : null;
}

/**
 * Writes an alert event to the outbox when the alert's account has a callback_url (read
 * now, in the same transaction). MUST be called inside `store.transaction`, with its `tx`,
 * beside the change it reports, so the event exists exactly when the change does. Returns
 * the event id, or null when the account has no callback. Exported for the escalation
 * engine (`alert.escalated`, with `details` such as the step).
 */
export function emitAlertEvent(
  tx: Tx,
  type: AlertEventType,
  alert: AlertRecord,
  at: number,
  details: Record<string, unknown> = {},
): Promise<string | null> {
  return write(tx, type, alert.accountId, alert.id, at, alertEventFields(type, alert, details));
}

function alertEventFields(type: AlertEventType, alert: AlertRecord, details: Record<string, unknown> = {}): Record<string, unknown> {
  const extra = type === 'alert.acknowledged' ? { acknowledged_by: alert.acknowledgedBy } : {};
  return { ...details, alert: callbackAlertJson(alert), ...extra };
}

/**
 * As emitAlertEvent, for alerts that took one edge together (a bundle's alerts settling):
 * each account's callback_url is looked up once, and the alerts are read after their move
 * only when it has one.
 */
export async function emitAlertEvents(tx: Tx, type: AlertEventType, alerts: readonly Pick<AlertRecord, 'id' | 'accountId'>[], at: number): Promise<void> {
  const wanted = await withCallback(tx, alerts);
  if (wanted.length === 0) return;
  for (const alert of inOrder(await tx.alerts.getMany(wanted.map((a) => a.id)), wanted)) {
    await add(tx, type, alert.accountId, alert.id, at, alertEventFields(type, alert));
  }
}

/**
 * As emitAlertEvent, for a call's edge, for every call that took it together (a call and
 * the calls bundled into it), in the order given; each call and its alert are read after
 * the move, and only when the account has a callback_url.
 */
export async function emitCallEvents(tx: Tx, type: CallEventType, calls: readonly Pick<CallRecord, 'id' | 'accountId'>[], at: number): Promise<void> {
  const wanted = await withCallback(tx, calls);
  if (wanted.length === 0) return;
  const read = inOrder(await tx.calls.getMany(wanted.map((c) => c.id)), wanted);
  const alertIds = [...new Set(read.map((c) => c.alertId).filter((a): a is string => a !== null))];
  const alerts = new Map((await tx.alerts.getMany(alertIds)).map((a) => [a.id, a]));
  for (const call of read) {
    const alert = call.alertId ? alerts.get(call.alertId) : undefined;
    const fields = {
      alert: alert ? callbackAlertJson(alert) : null,
      call: callbackCallJson(call),
      ...(type === 'call.acknowledged' ? { acknowledged_by: call.phoneNumber } : {}),
    };
    // In order per alert; a call made without one (a test call, older rows) in order per call.
    await add(tx, type, call.accountId, call.alertId ?? call.id, at, fields);
  }
}

/** The records whose account has a callback_url, each account looked up once. */
async function withCallback<T extends { accountId: string }>(tx: Tx, records: readonly T[]): Promise<T[]> {
  const hasUrl = new Map<string, boolean>();
  for (const r of records) if (!hasUrl.has(r.accountId)) hasUrl.set(r.accountId, (await tx.outbox.urlOf(r.accountId)) !== null);
  return records.filter((r) => hasUrl.get(r.accountId));
}

/** `rows` (read in any order) in the order of `wanted`; ids not found are left out. */
function inOrder<T extends { id: string }>(rows: readonly T[], wanted: readonly { id: string }[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return wanted.map((w) => byId.get(w.id)).filter((r): r is T => r !== undefined);
}

/** What a trunk event says about the trunk: `{ "trunk": { "name", "server", "reachable", "result" } }`. */
export interface TrunkEventFields {
  /** The trunk's name (docs/telephony.md "SIP trunks: several, in order"; `default` for `[sip]` alone). */
  name?: string;
  server: string;
  reachable: boolean;
  /** The probe's outcome, e.g. "200 OK", "timeout". */
  result: string;
}

/**
 * `trunk.down` / `trunk.up` (docs/operations.md "Trunk monitoring") to EVERY account with a callback_url:
 * the trunk is shared, so each customer learns that calls cannot (or can again) go out.
 * MUST be called inside `store.transaction`, with its `tx`. In order per account (its own
 * order key, so one account's failing endpoint never holds up another's). Returns the
 * event ids written.
 */
export async function emitTrunkEvent(tx: Tx, type: TrunkEventType, trunk: TrunkEventFields, at: number): Promise<string[]> {
  const ids: string[] = [];
  for (const account of await tx.accounts.list()) {
    const id = await write(tx, type, account.id, `trunk/${account.id}`, at, { trunk });
    if (id) ids.push(id);
  }
  return ids;
}

/**
 * `selftest.failed` / `selftest.passed` (docs/telephony.md "Voice-path self-test") to EVERY account
 * with a callback_url, like a trunk event: `{ "self_test": { "ok", "trunk", "reason", "id", … } }`.
 * MUST be called inside `store.transaction`, with its `tx`, beside the result it reports.
 */
export async function emitSelfTestEvent(tx: Tx, type: SelfTestEventType, result: SelfTestRecord, at: number): Promise<string[]> {
  const ids: string[] = [];
  for (const account of await tx.accounts.list()) {
    const id = await write(tx, type, account.id, `trunk/${account.id}`, at, { self_test: selfTestJson(result) });
    if (id) ids.push(id);
  }
  return ids;
}

/** Who is on call, as `oncall.changed` says it: null for nobody. */
export interface OncallPerson {
  name: string | null;
  number: string;
}

/**
 * `oncall.changed` (docs/on-call.md "On-call schedules"): `{ "schedule": "noc", "schedule_id":
 * "sch_…", "from": {name, number} | null, "to": {name, number} | null, "at": <the change> }`.
 * MUST be called inside `store.transaction`, with its `tx`. In order per schedule.
 */
export function emitOncallChanged(
  tx: Tx,
  schedule: { id: string; accountId: string; name: string },
  from: OncallPerson | null,
  to: OncallPerson | null,
  at: number,
): Promise<string | null> {
  return write(tx, 'oncall.changed', schedule.accountId, `schedule/${schedule.id}`, at, { schedule: schedule.name, schedule_id: schedule.id, from, to });
}

/**
 * `sms.sent` / `sms.failed` / `email.sent` (docs/second-path.md "On the alert"): `{ "alert":
 * {…}, "person_id": "per_…", "to": "5321234567" | "ops@example.com", "detail": … }`. MUST be
 * called inside `store.transaction`, with its `tx`, beside the record of the text. In order
 * per alert.
 */
export function emitTextEvent(
  tx: Tx,
  type: TextEventType,
  alert: AlertRecord,
  at: number,
  fields: { personId: string | null; to: string; detail: string | null },
): Promise<string | null> {
  return write(tx, type, alert.accountId, alert.id, at, { alert: callbackAlertJson(alert), person_id: fields.personId, to: fields.to, detail: fields.detail });
}

async function write(tx: Tx, type: CallbackEventType, accountId: string, orderKey: string, at: number, fields: Record<string, unknown>): Promise<string | null> {
  if (!(await tx.outbox.urlOf(accountId))) return null;
  return add(tx, type, accountId, orderKey, at, fields);
}

/** write() once the account is known to have a callback_url. */
async function add(tx: Tx, type: CallbackEventType, accountId: string, orderKey: string, at: number, fields: Record<string, unknown>): Promise<string> {
  const eventId = newId('evt', at);
  const body = callbackBody({ eventId, type, at, accountId }, fields);
  await tx.outbox.add({ eventId, accountId, orderKey, type, body, at });
  return eventId;
}
