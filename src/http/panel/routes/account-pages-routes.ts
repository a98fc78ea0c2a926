import { Elysia } from 'elysia';
import { CALL_STATES, type CallState } from '../../../call-model';
import { phoneSearchDigits } from '../../../phone';
import { nextResetAt, periodOf } from '../../../credit';
import { wavOf } from '../audio';
import type { PanelCtx, PanelEnv } from '../env';
import { dateExample, ISO_DATE_EXAMPLE, readLocalDate } from '../date-input';
import { startOfDay } from '../format';
import { fill } from '../i18n';
import { dateWords } from '../i18n/date-words';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { dailyUsage, USAGE_LOOKBACK_MS } from '../usage-days';
import { CallsPage } from '../views/calls-page';
import { CreditPage } from '../views/credit-page';
import { HISTORY_ENDPOINTS, HistoryPage } from '../views/history-page';

export const PAGE_SIZE = 25;

/** Page number from `?page=`, at least 1. */
export function pageOf(c: PanelCtx): number {
  const n = Number(c.query.page);
  return Number.isInteger(n) && n >= 1 && n < 1_000_000 ? n : 1;
}

/** The filter fields that are set, to keep in links; `page` is added by the pager. */
export function kept(c: PanelCtx, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (c.query[n]) out[n] = c.query[n]!;
  return out;
}

/**
 * The date range of `?from=&to=` as [from, to) instants; `to` includes its whole day. Each day
 * typed as the panel shows dates or in ISO (docs/panel.md "Typing dates"); a day that is not
 * one filters nothing and is named in `problem`, the field keeping what was typed.
 */
function range(c: PanelCtx, tz: string): { range: { from?: number; to?: number }; problem: string | null } {
  const problems: string[] = [];
  const day = (name: 'from' | 'to', label: string) => {
    const typed = (c.query[name] ?? '').trim();
    if (!typed) return undefined;
    const iso = readLocalDate(typed, c.t.locale);
    if (!iso) problems.push(fill(dateWords(c.t).notDate, { field: label, value: typed, example: dateExample(c.t.locale), iso: ISO_DATE_EXAMPLE }));
    return iso ?? undefined;
  };
  const fromDay = day('from', c.t.from);
  const toDay = day('to', c.t.to);
  const from = startOfDay(fromDay, tz);
  const to = toDay === undefined ? undefined : startOfDay(nextDay(toDay), tz);
  return { range: { from, to }, problem: problems.length ? problems.join(' ') : null };
}

function nextDay(iso: string): string {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Credit, calls and API history of one account (read-only pages). */
export function accountPagesRoutes(env: PanelEnv) {
  const { clock, config } = env.deps;
  const tz = config.credit.timezone;
  return new Elysia({ name: 'panel-account-pages' })
    .get(
      '/panel/a/:accountId/credit',
      guarded(env, { account: true }, async (c) => {
        const now = clock();
        const period = periodOf(now, tz);
        const { times, used } = await env.services.panelReads.creditUsage(c.account.id, now - USAGE_LOOKBACK_MS, period);
        const days = dailyUsage(times, now, tz);
        return htmlResponse(
          CreditPage({
            t: c.t,
            fmt: c.fmt,
            user: c.user,
            csrf: c.csrf,
            account: c.account,
            period,
            used,
            resetAt: nextResetAt(now, tz),
            days,
          }),
        );
      }),
    )
    .get(
      '/panel/a/:accountId/calls',
      guarded(env, { account: true }, async (c) => {
        const page = pageOf(c);
        const state = (CALL_STATES as readonly string[]).includes(c.query.state ?? '') ? (c.query.state as CallState) : undefined;
        const number = phoneSearchDigits(c.query.number ?? '');
        const days = range(c, tz);
        const result = await env.services.panelReads.calls({
          accountId: c.account.id,
          state,
          phone: number || undefined,
          ...days.range,
          limit: PAGE_SIZE,
          offset: (page - 1) * PAGE_SIZE,
        });
        return htmlResponse(
          CallsPage({
            t: c.t,
            fmt: c.fmt,
            user: c.user,
            csrf: c.csrf,
            account: c.account,
            calls: result.rows,
            total: result.total,
            page,
            pageSize: PAGE_SIZE,
            filter: kept(c, ['state', 'number', 'from', 'to']),
            error: days.problem,
            audioUrl: (call) => `/panel/a/${c.account.id}/calls/${call.id}/audio.wav`,
          }),
        );
      }),
    )
    .get(
      '/panel/a/:accountId/calls/:callId/audio.wav',
      guarded(env, { account: true }, async (c) => {
        const call = await env.services.panelReads.callOnly(c.account.id, c.params.callId ?? '');
        if (!call) return new Response('Not found', { status: 404 });
        return wavOf(env.speech, call.message, env.deps.log);
      }),
    )
    .get(
      '/panel/a/:accountId/history',
      guarded(env, { account: true }, async (c) => {
        const page = pageOf(c);
        const endpoint = (HISTORY_ENDPOINTS as readonly string[]).includes(c.query.endpoint ?? '') ? c.query.endpoint : undefined;
        const statusClass = ['2', '4', '5'].includes(c.query.status ?? '') ? Number(c.query.status) : undefined;
        const days = range(c, tz);
        const result = await env.services.panelReads.history({
          accountId: c.account.id,
          endpoint,
          statusClass,
          ...days.range,
          limit: PAGE_SIZE,
          offset: (page - 1) * PAGE_SIZE,
        });
        return htmlResponse(
          HistoryPage({
            t: c.t,
            fmt: c.fmt,
            user: c.user,
            csrf: c.csrf,
            account: c.account,
            entries: result.rows,
            total: result.total,
            page,
            pageSize: PAGE_SIZE,
            filter: kept(c, ['endpoint', 'status', 'from', 'to']),
            error: days.problem,
          }),
        );
      }),
    );
}
