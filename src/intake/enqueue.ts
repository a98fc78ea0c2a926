import { resolveOpenAlertByKey } from '../alerts';
import type { Clock } from '../clock';
import { alertsSection } from '../config/sections/alerts';
import { periodOf } from '../credit';
import { beginEscalation, fallbackTarget, nobodyWarning, recordUnroutable, routeFrom } from '../escalation';
import type { CallTarget } from '../people';
import { metrics } from '../metrics';
import { ordinalOf, type Account, type CallSource, type EscalationPlan, type MaintenanceWindow, type Policy, type Store, type Tx } from '../store';
import { suppressingWindow } from '../maintenance/suppress';
import { decideDedupe } from './dedupe';
import type { AlertOrigin } from './native-source';
import type { SignedOnce } from './authorize';
import type { IntakeDeps } from './deps';
import type { Lookups } from './lookup-cache';
import type { IntakeEndpoint, IntakeResult, Outcome } from './outcome';

/** alerts.dedupe_window_s when the caller's deps do not say (unit tests): the config's own default. */
const DEFAULT_DEDUPE_WINDOW_S = alertsSection.parse({}).dedupe_window_s;

export interface EnqueueRequest {
  endpoint: IntakeEndpoint;
  accountId: string;
  /** The account's credit per period, as read when the request was authorised. */
  monthlyCredit: number;
  /** null: raised by the appliance itself (a heartbeat), which has no credential, key or signature. */
  credentialId: string | null;
  /** Who raised it when not the endpoint (`heartbeat`): its calls and its alert carry this source. */
  source?: CallSource;
  phoneNumbers: string[];
  /** Who phoneNumbers reach when they are people (a hand-off alert to the outgoing person): their calls name them. */
  targets?: readonly CallTarget[];
  message: string;
  /** `alert_key`: null for a plain request, which is never deduplicated. */
  alertKey: string | null;
  idempotencyKey: string | null;
  /** A signed request: remembered here, refused when seen before (authorize.ts SignedOnce). */
  signedOnce?: SignedOnce | null;
  /** Under a policy: the first step's numbers are called (they include phoneNumbers) and the schedule starts. */
  escalation?: { policy: Policy; plan: EscalationPlan } | null;
  /** A native source's name and labels (native-source.ts): the alert's source, and what maintenance windows match. */
  origin?: AlertOrigin | null;
  /** The account's windows not ended when the request began (Lookups.windowsOf); absent: read in the transaction. */
  windows?: readonly MaintenanceWindow[];
}

export interface EnqueueOptions {
  timeZone: string;
  /** alerts.dedupe_window_s in ms; 0: no dedupe. */
  dedupeWindowMs: number;
  /** Why new calls would wait (no SIP trunk): stored with them, so their status says it at once. */
  waitReason?: string | null;
}

/**
 * Creates (or, for a repeated key, joins) the alert, charges credit for the numbers that
 * need a new call and queues those calls, in one durable transaction, all or nothing.
 * Runs in one `store.transaction`, so concurrent requests are applied one after another:
 * of many racing for the last credit, exactly one wins; of two copies of a keyed alert,
 * one calls. Resolves only after COMMIT.
 */
export async function enqueueCalls(
  // Only its unit of work is used: a caller already in a transaction passes one that runs in it.
  store: Pick<Store, 'transaction' | 'queueAtOnce'>,
  clock: Clock,
  options: EnqueueOptions,
  req: EnqueueRequest,
): Promise<{ outcome: Outcome; replayed: boolean; newlyUnroutable?: boolean }> {
  const atOnce = await queuePlainAtOnce(store, clock, options, req);
  if (atOnce) return atOnce;
  return store.transaction(async (tx) => {
    const now = clock();
    // Copies on other appliances wait here, before the reads below (see idempotencyLock).
    if (req.idempotencyKey && req.credentialId) await tx.serializeOn(idempotencyLock(req.credentialId, req.endpoint, req.idempotencyKey));
    if (req.alertKey) await tx.serializeOn(alertLock(req.accountId, req.alertKey));
    if (req.idempotencyKey && req.credentialId) {
      // Checked again inside the transaction: two copies racing in one batch queue once.
      const earlier = await tx.idempotency.find(req.credentialId, req.endpoint, req.idempotencyKey, now);
      if (earlier) return { outcome: earlier as Outcome, replayed: true };
    }
    if (req.signedOnce && req.credentialId && !(await tx.signedRequests.firstUse(req.credentialId, req.signedOnce.signature, req.signedOnce.expiresAt, now))) {
      return { outcome: REPLAYED_SIGNATURE, replayed: false };
    }
    // The first step calls whoever is on call in its schedules now (docs/on-call.md "On-call schedules").
    const route = req.escalation ? await firstRoute(tx, req.accountId, req.escalation.plan, now) : null;
    const numbers = route ? route.numbers : req.phoneNumbers;
    // The key's open alert and its newest one, asked together (one round trip on PostgreSQL).
    const [open, latest] = req.alertKey
      ? await Promise.all([tx.alerts.findOpen(req.accountId, req.alertKey), tx.alerts.latestByKey(req.accountId, req.alertKey)])
      : [null, null];
    const escalating = open && (await tx.escalations.get(open.id))?.state === 'running' ? open : null;
    const dedupe = escalating
      ? // A repeat of an alert that is escalating: the escalation goes on, nobody is called anew.
        { alert: escalating, standing: escalating, fresh: [], deduplicatedCallIds: [] }
      : req.alertKey
        ? await decideDedupe(tx, latest, numbers, now, options.dedupeWindowMs)
        : { alert: null, standing: null, fresh: numbers, deduplicatedCallIds: [] };
    const alertSource = alertSourceOf(req);
    // docs/on-call.md "Maintenance windows": under a matching window the alert is stored, nobody is
    // called.
    const windows = req.windows ?? (await tx.maintenance.notEndedAt(req.accountId, now));
    const window = suppressingWindow(windows, { key: req.alertKey, source: alertSource, labels: req.origin?.labels ?? null }, now);
    const fresh = window ? [] : dedupe.fresh;
    const period = periodOf(now, options.timeZone);
    // Check and charge in one statement inside the transaction: of requests racing for the
    // last credit, one wins. Charged before the calls are inserted, so a refusal costs no
    // insert; the savepoint around this write still makes the pair all or nothing.
    // Only new calls count (docs/http-api.md: fewer credits left than new calls; a deduplicated
    // request needs none).
    if (fresh.length > 0 && !(await tx.usage.tryCharge(req.accountId, period, fresh.length, req.monthlyCredit))) {
      return { outcome: { code: 'insufficient_credit' }, replayed: false };
    }
    const source = callSourceOf(req);
    // Every number deduplicated: the answer names the alert that stands for them; none is
    // created, since an alert with no call would never settle.
    const alertId =
      (dedupe.fresh.length === 0 ? dedupe.standing?.id : dedupe.alert?.id) ??
      (await tx.alerts.create({ accountId: req.accountId, credentialId: req.credentialId, key: req.alertKey, source: alertSource, message: req.message, labels: req.origin?.labels ?? null }, now));
    if (window) await tx.maintenance.suppressAlert(alertId, window.id, window.endsAt);
    const callIds = await tx.calls.enqueue(
      fresh.map((phoneNumber) => ({
        accountId: req.accountId,
        credentialId: req.credentialId,
        source,
        phoneNumber,
        message: req.message,
        alertId,
        escalationOrdinal: req.escalation && !escalating && !route?.unroutable ? ordinalOf({ plan: req.escalation.plan, round: 1, step: route!.step }) : 0,
        lastReason: options.waitReason ?? null,
        // A person's number (docs/on-call.md "People"): the call names them, and their next phone follows a failure.
        person: (route?.targets ?? req.targets)?.find((t) => t.number === phoneNumber)?.person ?? null,
      })),
      now,
    );
    if (req.escalation && !escalating && !window && !route?.unroutable && !(await tx.escalations.get(alertId))) {
      await beginEscalation(tx, { alertId, accountId: req.accountId, credentialId: req.credentialId, ...req.escalation, message: req.message, now, step: route!.step });
    }
    // Contract "Nothing silently calls nobody": stored and answered as usual, plus why; the
    // fallback (when set) was called above as this alert's plain call.
    const unroutable = route?.unroutable && !escalating && !window ? route.unroutable : null;
    let newlyUnroutable = false;
    if (unroutable) {
      const fallback = route!.numbers[0];
      newlyUnroutable = await recordUnroutableOnce(tx, alertId, unroutable, now, options.timeZone, fallback ? { number: fallback, callIds } : null);
    }
    const outcome: Outcome = { code: 'QUEUED', callIds, endpoint: req.endpoint, alertId };
    if (unroutable) outcome.warning = nobodyWarning(unroutable);
    // Keyed or escalated requests name their alert (and what was deduplicated); plain ones do not.
    if (req.alertKey || req.escalation) outcome.deduplicatedCallIds = dedupe.deduplicatedCallIds;
    if (window) outcome.suppressed = window.id;
    if (req.idempotencyKey && req.credentialId) await tx.idempotency.save(req.credentialId, req.endpoint, req.idempotencyKey, outcome, now);
    return { outcome, replayed: false, newlyUnroutable };
  }, { savepoint: !isPlain(req) });
}

/**
 * Where a request under a policy goes first (route.ts): the first step that reaches someone
 * now (earlier steps reaching nobody are passed over at once). When none does, the alert is
 * unroutable (`unroutable` says why) and the account's fallback number, if any, is its one call.
 */
async function firstRoute(tx: Tx, accountId: string, plan: EscalationPlan, now: number): Promise<{ numbers: string[]; targets: CallTarget[]; step: number; unroutable: string | null }> {
  const route = await routeFrom(tx, accountId, plan, { round: 1, step: 0 }, now);
  if (route.kind === 'step') return { numbers: route.numbers, targets: route.targets, step: route.step, unroutable: null };
  const fallback = await fallbackTarget(tx, accountId);
  return { numbers: fallback ? [fallback.number] : [], targets: fallback ? [fallback] : [], step: 0, unroutable: route.kind === 'nobody' ? route.why : route.skipped.join('; ') };
}

/**
 * recordUnroutable (src/escalation/unroutable.ts) once per alert and why: a repeat joining it
 * says nothing new, and is not counted again (true: recorded now).
 */
async function recordUnroutableOnce(tx: Tx, alertId: string, why: string, now: number, timeZone: string, fallback: { number: string; callIds: string[] } | null): Promise<boolean> {
  const alert = (await tx.alerts.get(alertId))!;
  if (alert.unroutable === why) return false;
  await recordUnroutable(tx, alert, why, now, { timeZone, fallback });
  return true;
}

/**
 * A plain request (no alert key, policy, Idempotency-Key or signature) makes an alert and its
 * calls and charges them, nothing else: its unit's statements fail only when the database
 * itself does (new ids; accounts are never deleted; a charge without room writes nothing), so
 * on SQLite it runs without a savepoint of its own (UnitOptions.savepoint; BENCHMARKS.md
 * "Pages a group commit writes; the savepoint a plain request paid for").
 */
function isPlain(req: EnqueueRequest): boolean {
  return !req.alertKey && !req.escalation && !req.idempotencyKey && !req.signedOnce;
}

/**
 * On PostgreSQL, a plain request with its maintenance windows known and none matching: the
 * unit's three writes as one statement of its own (store.queueAtOnce, chained from the same
 * table groups' texts). Null when it is not that, or when the charge needs the unit above
 * (which then decides everything, credit included).
 */
async function queuePlainAtOnce(
  store: Pick<Store, 'queueAtOnce'>,
  clock: Clock,
  options: EnqueueOptions,
  req: EnqueueRequest,
): Promise<{ outcome: Outcome; replayed: boolean } | null> {
  if (!store.queueAtOnce || !isPlain(req) || !req.windows || req.phoneNumbers.length === 0) return null;
  const now = clock();
  const alertSource = alertSourceOf(req);
  const labels = req.origin?.labels ?? null;
  if (suppressingWindow(req.windows, { key: null, source: alertSource, labels }, now)) return null;
  const queued = await store.queueAtOnce({
    accountId: req.accountId,
    credentialId: req.credentialId,
    alertSource,
    labels,
    callSource: callSourceOf(req),
    message: req.message,
    phoneNumbers: req.phoneNumbers,
    period: periodOf(now, options.timeZone),
    credit: req.monthlyCredit,
    lastReason: options.waitReason ?? null,
    now,
  });
  if (!queued) return null;
  return { outcome: { code: 'QUEUED', callIds: queued.callIds, endpoint: req.endpoint, alertId: queued.alertId }, replayed: false };
}

/** Who raised the alert: a native source's name, the appliance itself (`heartbeat`), or the endpoint. */
function alertSourceOf(req: EnqueueRequest): string {
  return req.origin?.source ?? req.source ?? req.endpoint;
}

/**
 * The calls' source. The compatible APIs come with the webhook key: their calls count as
 * webhook calls, their alert names the API (docs/integrations.md "PagerDuty and Opsgenie compatible intake").
 */
function callSourceOf(req: EnqueueRequest): CallSource {
  return req.source ?? (req.endpoint === 'api' ? 'api' : 'webhook');
}

/** A signed request seen before (here or on another appliance): refused as `Invalid signature`. */
const REPLAYED_SIGNATURE: Outcome = { code: 'invalid_signature', reason: 'replayed' };

/** The last step of both endpoints: queue durably, wake the dialer, answer with who asked. */
export async function queueAccepted(
  deps: IntakeDeps,
  endpoint: IntakeEndpoint,
  account: Account,
  credentialId: string,
  request: Pick<EnqueueRequest, 'phoneNumbers' | 'message' | 'alertKey' | 'idempotencyKey' | 'escalation' | 'signedOnce' | 'origin'>,
  /** The request's lookups, made fresh when it began: the account's maintenance windows come from them. */
  lookups: Pick<Lookups, 'windowsOf'>,
): Promise<IntakeResult> {
  const r = await enqueueCalls(deps.store, deps.clock, optionsOf(deps), {
    endpoint,
    accountId: account.id,
    monthlyCredit: account.monthlyCredit,
    credentialId,
    ...request,
    windows: await lookups.windowsOf(account.id, deps.clock()),
  });
  if (r.outcome.code === 'QUEUED' && !r.replayed && r.outcome.callIds.length > 0) deps.onQueued?.(r.outcome.callIds);
  // Counted once committed, per alert (docs/on-call.md "Nothing silently calls nobody"): a replay,
  // or a repeat of a keyed alert that already reached nobody for the same reason, answers with the
  // warning again but is not a new unroutable alert.
  if (r.newlyUnroutable) metrics.alertsUnroutable.inc();
  return { outcome: r.outcome, accountId: account.id, credentialId, replayed: r.replayed };
}

/**
 * `status: resolved` with a key: closes the account's open alert of that key (its waiting
 * calls end `cancelled`, never-dialled ones give their credit back) in one transaction with
 * the Idempotency-Key answer. Places no call, charges nothing.
 */
export async function resolveAccepted(
  deps: IntakeDeps,
  endpoint: IntakeEndpoint,
  account: Account,
  credentialId: string,
  alertKey: string,
  idempotencyKey: string | null,
  signedOnce: SignedOnce | null = null,
): Promise<IntakeResult> {
  const r = await deps.store.transaction(async (tx): Promise<{ outcome: Outcome; replayed: boolean }> => {
    const now = deps.clock();
    if (idempotencyKey) await tx.serializeOn(idempotencyLock(credentialId, endpoint, idempotencyKey));
    await tx.serializeOn(alertLock(account.id, alertKey));
    if (idempotencyKey) {
      const earlier = await tx.idempotency.find(credentialId, endpoint, idempotencyKey, now);
      if (earlier) return { outcome: earlier as Outcome, replayed: true };
    }
    if (signedOnce && !(await tx.signedRequests.firstUse(credentialId, signedOnce.signature, signedOnce.expiresAt, now))) {
      return { outcome: REPLAYED_SIGNATURE, replayed: false };
    }
    const lifecycle = { store: tx, timeZone: deps.timeZone };
    const closed = await resolveOpenAlertByKey(lifecycle, account.id, alertKey, now, `${endpoint} request`);
    const outcome: Outcome = { code: 'RESOLVED', alertId: closed.alert?.id ?? null, cancelledCallIds: closed.cancelledCallIds };
    if (idempotencyKey) await tx.idempotency.save(credentialId, endpoint, idempotencyKey, outcome, now);
    return { outcome, replayed: false };
  });
  return { outcome: r.outcome, accountId: account.id, credentialId, replayed: r.replayed };
}

/**
 * Copies of one delivery (same Idempotency-Key) or of one alert (same key) that reach two
 * appliances on one PostgreSQL at once are decided one after the other, as they are on one
 * appliance's SQLite writer: `await tx.serializeOn` on these keys first, the delivery's
 * before the alert's, always in this order, so two of them never wait on each other.
 */
function idempotencyLock(credentialId: string, endpoint: string, idempotencyKey: string): string {
  return `idempotency ${credentialId} ${endpoint} ${idempotencyKey}`;
}

function alertLock(accountId: string, alertKey: string): string {
  return `alert ${accountId} ${alertKey}`;
}

function optionsOf(deps: IntakeDeps): EnqueueOptions {
  return { timeZone: deps.timeZone, dedupeWindowMs: (deps.dedupeWindowS ?? DEFAULT_DEDUPE_WINDOW_S) * 1000, waitReason: deps.waitReason?.() ?? null };
}
