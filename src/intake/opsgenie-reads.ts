import type { AlertMatch, AlertPage } from '../store';
import { alertKeyOf } from './compat-intake';

/**
 * What a script's read of Opsgenie's Alert API asks (docs/integrations.md "Scripts written for
 * Opsgenie and PagerDuty"): `GET /v2/alerts/{identifier}?identifierType=…`, `GET /v2/alerts`
 * (`query`, `limit`, `offset`, `sort`, `order`) and `GET /v2/alerts/count` (`query`), read into
 * the store's terms. The answers' shapes are outward/opsgenie-alert-json.ts.
 *
 * Opsgenie's query language is larger than what an appliance's alerts carry: the terms below
 * are read exactly, joined by AND; any other term, OR and NOT are refused with 422 naming the
 * term, never answered with a list that ignored part of the question.
 */

/** A parameter that cannot be read: Opsgenie's 422, the field naming what is wrong with it. */
export type InvalidParameters = { ok: false; errors: Record<string, string> };

/** Opsgenie's paging (docs.opsgenie.com "Pagination"): limit 20 by default, at most 100. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** The alert a GET names: by our id (Opsgenie's `id`, and `tiny`: our tinyId is the id), or by its alias. */
export type AlertIdentifier = { by: 'id'; id: string } | { by: 'key'; key: string };

export function readAlertIdentifier(identifier: string, identifierType: string | undefined): { ok: true; ref: AlertIdentifier } | InvalidParameters {
  const type = (identifierType ?? 'id').trim().toLowerCase();
  const name = identifier.trim();
  if (!name) return { ok: false, errors: { identifier: 'Identifier can not be empty.' } };
  if (type === 'id' || type === 'tiny') return { ok: true, ref: { by: 'id', id: name } };
  if (type === 'alias') return { ok: true, ref: { by: 'key', key: alertKeyOf('opsgenie', name) } };
  return { ok: false, errors: { identifierType: 'Identifier type should be one of [id, alias, tiny]' } };
}

/** Opsgenie's sort fields this list can order by; the others would need data we do not keep. */
const SORTS: Record<string, AlertPage['sort']> = {
  createdAt: 'created_at',
  // Repeats do not move an alert here: it last occurred when it was created.
  lastOccurredAt: 'created_at',
  // Our tinyId is the id, which sorts by creation time (src/ids).
  tinyId: 'created_at',
  updatedAt: 'updated_at',
};

export interface AlertListRequest {
  match: AlertMatch;
  page: AlertPage;
}

/** `GET /v2/alerts`: the query, then the page (limit 1–100, offset ≥ 0, sort, order asc|desc). */
export function readAlertList(params: Record<string, string | undefined>): ({ ok: true } & AlertListRequest) | InvalidParameters {
  const errors: Record<string, string> = {};
  const match = readAlertQuery(params);
  if (!match.ok) Object.assign(errors, match.errors);
  const limit = intParam(params.limit, DEFAULT_LIMIT);
  if (limit === null || limit < 1 || limit > MAX_LIMIT) errors.limit = `Limit should be between 1 and ${MAX_LIMIT}`;
  const offset = intParam(params.offset, 0);
  if (offset === null || offset < 0) errors.offset = 'Offset should be a non-negative integer';
  const sortName = params.sort?.trim() || 'createdAt';
  const sort = SORTS[sortName];
  if (!sort) errors.sort = `Sort field should be one of [${Object.keys(SORTS).join(', ')}]`;
  const order = (params.order?.trim() || 'desc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') errors.order = 'Order should be one of [asc, desc]';
  if (params.searchIdentifier !== undefined) errors.searchIdentifier = 'Saved searches are not kept here: give the query itself';
  if (Object.keys(errors).length > 0 || !match.ok) return { ok: false, errors };
  return { ok: true, match: match.match, page: { sort: sort!, desc: order === 'desc', limit: limit!, offset: offset! } };
}

/** `GET /v2/alerts/count`: the query only. */
export function readAlertCount(params: Record<string, string | undefined>): { ok: true; match: AlertMatch } | InvalidParameters {
  if (params.searchIdentifier !== undefined) return { ok: false, errors: { searchIdentifier: 'Saved searches are not kept here: give the query itself' } };
  return readAlertQuery(params);
}

/**
 * `query`: terms `field:value` (or `field=value`; a value may be quoted) joined by AND:
 * `status:open|closed`, `acknowledged:true|false`, `alias:<alias>`, `tinyId:<id>`, `id:<id>`.
 * Empty: every alert of the account.
 */
export function readAlertQuery(params: Record<string, string | undefined>): { ok: true; match: AlertMatch } | InvalidParameters {
  const text = (params.query ?? '').trim();
  const match: AlertMatch = {};
  if (!text) return { ok: true, match };
  const refuse = (why: string): InvalidParameters => ({ ok: false, errors: { query: why } });
  for (const term of splitAnd(text)) {
    const m = /^([A-Za-z]+)\s*[:=]\s*(?:"([^"]*)"|(\S+))$/.exec(term);
    if (!m) return refuse(`"${term}" is not supported here: give field:value terms joined by AND (status, acknowledged, alias, tinyId, id)`);
    const field = m[1]!;
    const value = m[2] ?? m[3]!;
    switch (field) {
      case 'status':
        if (value !== 'open' && value !== 'closed') return refuse(`status should be open or closed, not "${value}"`);
        match.open = value === 'open';
        break;
      case 'acknowledged':
        if (value !== 'true' && value !== 'false') return refuse(`acknowledged should be true or false, not "${value}"`);
        match.acknowledged = value === 'true';
        break;
      case 'alias':
        match.key = alertKeyOf('opsgenie', value);
        break;
      case 'id':
      case 'tinyId':
        match.id = value;
        break;
      default:
        return refuse(`"${field}" is not a field this appliance can search (status, acknowledged, alias, tinyId, id)`);
    }
  }
  return { ok: true, match };
}

/** The terms of `a AND b AND c` (AND in any case); quoted values keep their spaces. */
function splitAnd(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  const words = text.match(/"[^"]*"|\S+/g) ?? [];
  for (const w of words) {
    if (w.toUpperCase() === 'AND') {
      terms.push(current.trim());
      current = '';
      continue;
    }
    current += (current ? ' ' : '') + w;
  }
  terms.push(current.trim());
  return terms.map((t) => t.replace(/\s*([:=])\s*/, '$1'));
}

function intParam(raw: string | undefined, fallback: number): number | null {
  if (raw === undefined || raw.trim() === '') return fallback;
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : null;
}
