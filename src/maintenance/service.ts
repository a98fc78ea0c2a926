import * as z from 'zod';
import type { Clock } from '../clock';
import type { ErrorCode } from '../errors';
import type { MaintenanceWindow, Store } from '../store';
import { matchText, MAX_MATCH_CHARS, MAX_MATCHES, parseMatch } from './match';
import { startWindow, type WindowStart } from './start';

/** ISO 8601 with a zone (`Z` or `+03:00`), with or without seconds: a time every appliance reads alike. */
const isoTime = z.union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })]);

/** What a person gives for a window: the API body, the CLI's options, the panel's form. */
export const windowInput = z.object({
  start: z.string().trim(),
  end: z.string().trim(),
  reason: z.string().trim().max(500).optional(),
  match: z.array(z.string().max(MAX_MATCH_CHARS)).max(MAX_MATCHES).optional(),
});
export type WindowInput = z.input<typeof windowInput>;

export type MaintenanceRefusal = Extract<
  ErrorCode,
  'maintenance_bad_time' | 'maintenance_end_before_start' | 'maintenance_bad_match' | 'maintenance_invalid' | 'maintenance_not_found'
>;

export type WindowResult =
  | { ok: true; window: MaintenanceWindow; start?: WindowStart }
  /** `detail` names the field or the entry (the catalogue message, then ": " and it). */
  | { ok: false; code: MaintenanceRefusal; detail?: string }
  /** The CLI names an account that does not exist (the API and panel always have theirs). */
  | { ok: false; code: 'account_not_found'; detail?: undefined };

type Parsed = { ok: true; startsAt: number; endsAt: number; reason: string; matches: string[] } | Extract<WindowResult, { ok: false }>;

/** The input checked, in this order: its shape, the times, end after start and not past, each match. */
export function parseWindowInput(input: unknown, now: number): Parsed {
  const shape = windowInput.safeParse(input);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    return { ok: false, code: 'maintenance_invalid', detail: `${issue.path.join('.') || 'body'}: ${issue.message}` };
  }
  const v = shape.data;
  for (const field of ['start', 'end'] as const) {
    if (!isoTime.safeParse(v[field]).success) return { ok: false, code: 'maintenance_bad_time', detail: `${field} "${v[field]}"` };
  }
  const startsAt = Date.parse(v.start);
  const endsAt = Date.parse(v.end);
  if (endsAt <= startsAt) return { ok: false, code: 'maintenance_end_before_start' };
  if (endsAt <= now) return { ok: false, code: 'maintenance_invalid', detail: 'end: already past' };
  const matches: string[] = [];
  for (const raw of v.match ?? []) {
    const m = parseMatch(raw);
    if (!m) return { ok: false, code: 'maintenance_bad_match', detail: `"${raw}"` };
    const text = matchText(m);
    if (!matches.includes(text)) matches.push(text);
  }
  return { ok: true, startsAt, endsAt, reason: v.reason ?? '', matches };
}

/**
 * Maintenance windows of an account (docs/on-call.md "Maintenance windows"): the rules live here
 * once, for the CLI, the API and the panel. A window created already under way starts in the same
 * transaction (its matching calls are cancelled before the answer); a later one is started
 * by the starter (starter.ts).
 */
export interface MaintenanceService {
  create(accountId: string, input: unknown): Promise<WindowResult>;
  /** The account's windows not ended yet (with `all`: also the ended ones), latest start first. */
  list(accountId: string, options?: { all?: boolean }): Promise<MaintenanceWindow[]>;
  get(accountId: string | null, id: string): Promise<WindowResult>;
  /** Deleted: it suppresses nothing from now on (its alerts' next repeat calls). */
  remove(accountId: string | null, id: string): Promise<WindowResult>;
}

export function createMaintenanceService({ store, clock, timeZone }: { store: Store; clock: Clock; timeZone: string }): MaintenanceService {
  return {
    create: (accountId, input) =>
      store.transaction(async (tx): Promise<WindowResult> => {
        const now = clock();
        const v = parseWindowInput(input, now);
        if (!v.ok) return v;
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        const window = await tx.maintenance.create({ accountId, startsAt: v.startsAt, endsAt: v.endsAt, reason: v.reason, matches: v.matches }, now);
        if (window.startsAt > now) return { ok: true, window };
        // Already under way: started here, at once, so no call it covers rings after the answer.
        const start = await startWindow(tx, window, now, timeZone);
        await tx.maintenance.markStarted(window.id, null, now);
        return { ok: true, window: { ...window, startedAt: now }, start };
      }),
    list: (accountId, { all = false } = {}) => store.maintenance.list(accountId, all ? {} : { endedAfter: clock() }),
    async get(accountId, id) {
      const window = await store.maintenance.getInAccount(accountId, id);
      return window ? { ok: true, window } : { ok: false, code: 'maintenance_not_found' };
    },
    remove: (accountId, id) =>
      store.transaction(async (tx): Promise<WindowResult> => {
        const window = await tx.maintenance.getInAccount(accountId, id);
        if (!window) return { ok: false, code: 'maintenance_not_found' };
        await tx.maintenance.delete(window.id);
        await tx.maintenance.endSuppression(window.id, clock());
        return { ok: true, window };
      }),
  };
}
