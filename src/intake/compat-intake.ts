import { createHash, randomUUID } from 'node:crypto';
import { acknowledgeAlert } from '../alerts';
import { normalizePhoneNumber, splitPhoneNumbers } from '../phone';
import type { AlertRecord } from '../store';
import { MAX_ALERT_KEY_CODE_POINTS } from './alert-fields';
import { authenticate } from './authenticate';
import { authorize } from './authorize';
import type { IntakeDeps } from './deps';
import { queueAccepted, resolveAccepted } from './enqueue';
import { lookupsFor } from './lookup-cache';
import { MAX_WEBHOOK_NUMBERS } from './accept-webhook';
import type { IntakeRefusal, Outcome } from './outcome';
import { choosePolicy, hasDefaultPolicy } from './policy-choice';

/** The compatible APIs (docs/integrations.md "PagerDuty and Opsgenie compatible intake"). */
export type CompatApi = 'pagerduty' | 'opsgenie';

/** What a PagerDuty event or an Opsgenie request asks, once its own format has been read. */
export type CompatAction =
  /** A new alert (or a repeat of an open one): `key` null is an alert nobody can name again. */
  | {
      kind: 'trigger';
      key: string | null;
      message: string;
      /** Text fields the tool sent beside it (Opsgenie `details`, PagerDuty `custom_details`…): what `label:` of a maintenance window matches. */
      labels?: Record<string, string> | null;
    }
  | { kind: 'resolve'; by: AlertRef }
  | { kind: 'acknowledge'; by: AlertRef }
  /** Accepted and answered, but changes nothing here (Opsgenie notes, message updates …). */
  | { kind: 'ignore' };

/** An alert named by its key (PagerDuty `dedup_key`, Opsgenie `alias`) or by our `alt_…` id. */
export type AlertRef = { key: string } | { id: string };

export interface CompatRequest {
  api: CompatApi;
  webhookKey: string;
  action: CompatAction;
  /** The URL's query: `to=` / `phone_number=` name the numbers, `policy=` a policy. */
  query: Record<string, string | undefined>;
  idempotencyKey: string | null;
}

export type CompatOutcome =
  | { ok: false; code: IntakeRefusal | 'signature_required'; value?: string }
  | { ok: true; action: CompatAction['kind']; alertId: string | null; replayed: boolean };

export interface CompatResult {
  outcome: CompatOutcome;
  accountId: string | null;
  credentialId: string | null;
}

/** Who acknowledges through each API (alerts.acknowledged_by). */
export const ACKNOWLEDGED_BY: Record<CompatApi, string> = { pagerduty: 'pagerduty-api', opsgenie: 'opsgenie-api' };

/**
 * One request of a compatible API, through the webhook's own alert path: the webhook key,
 * the plan, the numbers of the URL (or a policy), then `queueAccepted` / `resolveAccepted`
 * (dedupe, credit, escalation, callbacks, and whatever else that path applies), so both APIs
 * behave as `/webhook/receive` does. Committed before it returns.
 */
export async function acceptCompat(deps: IntakeDeps, req: CompatRequest): Promise<CompatResult> {
  const who = { accountId: null as string | null, credentialId: null as string | null };
  const refuse = (code: IntakeRefusal | 'signature_required', value?: string): CompatResult => ({ outcome: { ok: false, code, value }, ...who });

  const lookups = await lookupsFor(deps.store).fresh();
  const authn = await authenticate(deps.store, lookups, { kind: 'webhook_key', webhookKey: req.webhookKey.trim() });
  if (!authn.ok) return refuse(authn.code);
  const cred = authn.credential;
  who.accountId = cred.accountId;
  who.credentialId = cred.id;
  // These tools cannot sign: a key that requires signatures refuses them (`Signature required`).
  const auth = await authorize(deps, lookups, authn, { signature: { timestamp: null, signature: null }, signedPayload: new Uint8Array() }, { endpoint: req.api, key: req.idempotencyKey });
  if (!auth.ok) {
    if ('replayed' in auth) return { outcome: fromOutcome(auth.replayed, req.action.kind, true), ...who };
    return refuse(auth.code);
  }
  const account = auth.account;
  const action = req.action;

  if (action.kind === 'ignore') return { outcome: { ok: true, action: 'ignore', alertId: null, replayed: false }, ...who };
  if (action.kind === 'acknowledge') {
    const alert = await acknowledgeRef(deps, req.api, account.id, action.by);
    return { outcome: { ok: true, action: 'acknowledge', alertId: alert?.id ?? null, replayed: false }, ...who };
  }
  if (action.kind === 'resolve') {
    if ('id' in action.by) {
      const r = await deps.alerts.resolve(account.id, action.by.id, `${req.api} request`);
      return { outcome: { ok: true, action: 'resolve', alertId: r.ok ? r.alert.id : null, replayed: false }, ...who };
    }
    const r = await resolveAccepted(deps, req.api, account, cred.id, alertKeyOf(req.api, action.by.key), req.idempotencyKey);
    return { outcome: fromOutcome(r.outcome, 'resolve', r.replayed), ...who };
  }

  const numbers = numbersOf(req.query, deps);
  if (!numbers.ok) return refuse(numbers.code, numbers.value);
  const named = req.query.policy?.trim() || null;
  if (numbers.numbers.length === 0 && named === null && !hasDefaultPolicy(cred)) return refuse('missing_fields');
  const choice = await choosePolicy(deps.store, account.id, cred, named, numbers.numbers);
  if (!choice.ok) return refuse(choice.code);
  const r = await queueAccepted(deps, req.api, account, cred.id, {
    phoneNumbers: numbers.numbers,
    message: action.message,
    alertKey: action.key === null ? null : alertKeyOf(req.api, action.key),
    idempotencyKey: req.idempotencyKey,
    escalation: choice.escalation,
    signedOnce: null,
    origin: { source: req.api, labels: action.labels ?? null },
  }, lookups);
  return { outcome: fromOutcome(r.outcome, 'trigger', r.replayed), ...who };
}

/** A random key for a trigger that named none (PagerDuty generates one and returns it). */
export function generatedKey(): string {
  return randomUUID().replaceAll('-', '');
}

/**
 * The alert key for a client's key: as it is up to our 200 characters (docs/http-api.md "Alerts:
 * dedupe and resolve"); a longer one (PagerDuty allows 255, Opsgenie 512) by its digest, so the
 * same long key always names the same alert.
 */
export function alertKeyOf(api: CompatApi, key: string): string {
  const trimmed = key.trim();
  if (Array.from(trimmed).length <= MAX_ALERT_KEY_CODE_POINTS) return trimmed;
  return `${api}:sha256:${createHash('sha256').update(trimmed).digest('hex')}`;
}

type Numbers = { ok: true; numbers: string[] } | { ok: false; code: 'too_many_numbers' | 'invalid_phone_number'; value?: string };

/** The URL's `to=` (or `phone_number=`), checked as the webhook checks its numbers. */
function numbersOf(query: Record<string, string | undefined>, deps: IntakeDeps): Numbers {
  const unique = new Map<string, { raw: string; number: string | null }>();
  for (const raw of splitPhoneNumbers(query.to ?? query.phone_number ?? '')) {
    const number = normalizePhoneNumber(raw, deps.numberForms);
    const k = number ?? `raw:${raw}`;
    if (!unique.has(k)) unique.set(k, { raw, number });
  }
  if (unique.size > MAX_WEBHOOK_NUMBERS) return { ok: false, code: 'too_many_numbers' };
  const invalid = [...unique.values()].find((e) => e.number === null);
  if (invalid) return { ok: false, code: 'invalid_phone_number', value: invalid.raw };
  return { ok: true, numbers: [...unique.values()].map((e) => e.number!) };
}

/** An intake outcome as these APIs see it: refused, or processed (which alert, if any). */
function fromOutcome(o: Outcome, action: CompatAction['kind'], replayed: boolean): CompatOutcome {
  switch (o.code) {
    case 'QUEUED':
      return { ok: true, action, alertId: o.alertId ?? null, replayed };
    case 'RESOLVED':
      return { ok: true, action, alertId: o.alertId, replayed };
    case 'SNS_CONFIRMATION':
      return { ok: true, action, alertId: null, replayed };
    case 'invalid_phone_number':
      return { ok: false, code: o.code, value: o.value };
    default:
      // A success this file does not know yet (uppercase, as the intake names them) is still one.
      return o.code === o.code.toUpperCase()
        ? { ok: true, action, alertId: (o as { alertId?: string }).alertId ?? null, replayed }
        : { ok: false, code: o.code };
  }
}

/**
 * PagerDuty `acknowledge` / Opsgenie acknowledge: the open alert of that key (or that id) is
 * acknowledged as pressing 1 would (its waiting calls end, the escalation stops). No open
 * alert: nothing changes (late or repeated acknowledgements are normal). Returns the alert.
 */
async function acknowledgeRef(deps: IntakeDeps, api: CompatApi, accountId: string, ref: AlertRef): Promise<AlertRecord | null> {
  const by = ACKNOWLEDGED_BY[api];
  if ('id' in ref) {
    const r = await deps.alerts.acknowledge(accountId, ref.id, by);
    return r.ok ? r.alert : null;
  }
  const key = alertKeyOf(api, ref.key);
  return deps.store.transaction(async (tx) => {
    const alert = await tx.alerts.findOpen(accountId, key);
    if (!alert) return (await tx.alerts.latestByKey(accountId, key)) ?? null;
    return (await acknowledgeAlert({ store: tx, timeZone: deps.timeZone }, alert, by, deps.clock())).alert;
  });
}

/** The text values of an object (numbers as text), as labels; null when there are none. */
export function textLabels(...objects: unknown[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const o of objects) {
    if (!o || typeof o !== 'object' || Array.isArray(o)) continue;
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string' && v.trim() !== '') out[k] = v.trim();
      else if (typeof v === 'number' && Number.isFinite(v)) out[k] = String(v);
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}
