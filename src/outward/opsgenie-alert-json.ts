import type { AlertRecord } from '../store';
import { iso } from './iso';
import type { OpsgenieAnswer } from './opsgenie-json';

/**
 * Opsgenie's Alert API reads and Heartbeat API ping, answered in Opsgenie's shapes
 * (docs/integrations.md "Scripts written for Opsgenie and PagerDuty"; the fields as
 * docs.opsgenie.com "Alert API" shows them for Get Alert, List Alerts and Count Alerts, and
 * "Heartbeat API" for the ping). What is read from a request is intake/opsgenie-reads.ts.
 *
 * Where an alert here has no such thing, the field says so plainly rather than inventing it:
 * no tags, never snoozed, no owner or responders; `count` 1 (a repeat joins the alert without
 * being counted); `priority` Opsgenie's default P3 (a priority is accepted, not kept).
 */

/**
 * Opsgenie's `status` is `open` until the alert is closed; here an alert that was acknowledged
 * (or that nobody answered) is done as well: it never calls again, and a repeat of its key is a
 * new alert (docs/http-api.md "Alerts: dedupe and resolve"). So only `open` is open.
 */
const statusOf = (a: AlertRecord): 'open' | 'closed' => (a.state === 'open' ? 'open' : 'closed');

/** When it closed: resolved, acknowledged, or (nobody answered) its last change. */
function closedAt(a: AlertRecord): number | null {
  if (a.state === 'open') return null;
  return a.resolvedAt ?? a.acknowledgedAt ?? a.updatedAt;
}

/** `report`: Opsgenie's ackTime and closeTime are milliseconds from creation; only what happened is given. */
function reportOf(a: AlertRecord): Record<string, unknown> {
  const report: Record<string, unknown> = {};
  if (a.acknowledgedAt !== null) report.ackTime = a.acknowledgedAt - a.createdAt;
  const closed = closedAt(a);
  if (closed !== null) report.closeTime = closed - a.createdAt;
  if (a.acknowledgedBy) report.acknowledgedBy = a.acknowledgedBy;
  return report;
}

/** An alert as a List Alerts item. `tinyId` is our id: an alert here has no second, shorter number. */
export function opsgenieAlertItemJson(a: AlertRecord): Record<string, unknown> {
  const acknowledged = a.state === 'acknowledged';
  return {
    id: a.id,
    tinyId: a.id,
    // Opsgenie gives an alert created without an alias its id as alias.
    alias: a.key ?? a.id,
    message: a.message,
    status: statusOf(a),
    acknowledged,
    // Someone heard it: the person who acknowledged it by phone or through an API.
    isSeen: acknowledged,
    tags: [],
    snoozed: false,
    count: 1,
    lastOccurredAt: iso(a.createdAt),
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    source: a.source,
    owner: '',
    priority: 'P3',
    responders: [],
    integration: { id: a.credentialId ?? '', name: a.source, type: a.source },
    report: reportOf(a),
  };
}

/** `GET /v2/alerts/{identifier}`: the item's fields, then actions, entity, description and details (our labels). */
export function opsgenieAlertJson(a: AlertRecord): OpsgenieAnswer {
  return { status: 200, body: { data: { ...opsgenieAlertItemJson(a), actions: [], entity: '', description: '', details: a.labels ?? {} } } };
}

export const ALERT_NOT_FOUND: OpsgenieAnswer = { status: 404, body: { message: 'Alert does not exist' } };

/** Opsgenie's paging links: the same query with another offset; `next` only when there is more. */
export interface OpsgeniePaging {
  first: string;
  last: string;
  next?: string;
}

/**
 * `GET /v2/alerts`: the page, and its links (docs.opsgenie.com "Pagination": in `paging` and in
 * the X-Paging-* headers, which the edge sets from `paging`).
 */
export function opsgenieAlertListJson(alerts: AlertRecord[], paging: OpsgeniePaging): OpsgenieAnswer {
  return { status: 200, body: { data: alerts.map(opsgenieAlertItemJson), paging } };
}

/** The paging links for a page of `limit` from `offset` of `total`, on the URL that asked. */
export function opsgeniePaging(url: URL, offset: number, limit: number, total: number): OpsgeniePaging {
  const at = (o: number) => {
    const u = new URL(url);
    u.searchParams.set('offset', String(o));
    u.searchParams.set('limit', String(limit));
    return u.toString();
  };
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  const paging: OpsgeniePaging = { first: at(0), last: at(lastOffset) };
  if (offset + limit < total) paging.next = at(offset + limit);
  return paging;
}

/** `GET /v2/alerts/count`. */
export function opsgenieCountJson(count: number): OpsgenieAnswer {
  return { status: 200, body: { data: { count } } };
}

/** 422 for a parameter of the URL (query, limit, identifierType …): `errors` names it. */
export function invalidParameters(errors: Record<string, string>): OpsgenieAnswer {
  return { status: 422, body: { message: 'Request parameters are not valid. Please check the errors.', errors } };
}

/** The Heartbeat API's ping, as Opsgenie answers it. */
export const PONG: OpsgenieAnswer = { status: 202, body: { result: 'PONG - Heartbeat received' } };

/**
 * No heartbeat of that name in the key's account. Opsgenie answers a ping before looking (its
 * docs say a PONG does not mean the heartbeat exists); here the name is checked at once, so a
 * script pinging a name that was never created (or not imported) is told so instead of being
 * watched by nothing.
 */
export function heartbeatNotFound(name: string): OpsgenieAnswer {
  return { status: 404, body: { message: `Heartbeat with name [${name}] does not exist` } };
}
