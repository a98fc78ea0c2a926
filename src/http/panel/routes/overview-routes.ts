import { Elysia } from 'elysia';
import type { Account } from '../../../store';
import { trunkConfigured } from '../../../config/sections/sip';
import { readCookie, SESSION_COOKIE, wantsSecureCookie } from '../cookies';
import type { PanelCtx, PanelEnv } from '../env';
import { startOfDay } from '../format';
import { guarded } from '../guard';
import { oncallOverviewReader } from '../oncall-overview-data';
import { fragmentResponse, htmlResponse, redirect } from '../html';
import { isLanguage, languageCookie } from '../language';
import { OverviewLive, OverviewPage, type OverviewData } from '../views/overview-page';

/**
 * The first page after login (issue 15 §5): the trunk, the queue, today's outcomes, open
 * alerts, the last failures, an owner's credit. Figures come from grouped queries
 * (PanelReads.overview), so the page and its 5 s refresh stay cheap on a large history.
 */
export function overviewRoutes(env: PanelEnv) {
  const { clock, config } = env.deps;
  const { panelReads: reads } = env.services;
  const tz = config.credit.timezone;
  const oncallOf = oncallOverviewReader(env);

  const dataFor = async (c: PanelCtx, account: Account | null): Promise<OverviewData> => {
    const now = clock();
    const today = startOfDay(c.fmt.isoDate(now), tz) ?? now;
    const [{ calls, alerts, queue, lastSip, finished, failures }, used, oncall, selfTests] = await Promise.all([
      reads.overview(account?.id ?? null, today),
      account ? reads.usedNow(account.id) : 0,
      oncallOf(account),
      reads.lastSelfTests(),
    ]);
    const oldest = queue ? queue.oldestCreatedAt : null;
    return {
      trunk: env.deps.trunkStatus ? env.deps.trunkStatus() : !trunkConfigured(config.sip) ? { state: 'not_configured', registered: null, lastError: null } : null,
      lastSip,
      inProgress: (calls.dialing ?? 0) + (calls.ringing ?? 0) + (calls.answered ?? 0),
      queued: calls.queued ?? 0,
      oldestQueuedS: oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000)),
      // What the list below calls open (panelQueries.openAlerts): not acknowledged, not resolved.
      // Counting `open` alone showed "Open alerts 0" beside six unacknowledged ones (issue 49).
      openAlerts: (alerts.open ?? 0) + (alerts.unacknowledged ?? 0),
      unacknowledged: alerts.unacknowledged ?? 0,
      today: finished,
      failures,
      credit: account ? { left: Math.max(0, account.monthlyCredit - used), total: account.monthlyCredit } : null,
      oncall,
      selfTests: selfTests.map((r) => ({ trunk: r.trunk, ok: r.ok, reason: r.reason, finishedAt: r.finishedAt })),
      ...(oncall.accountNames ? { accountNames: oncall.accountNames } : {}),
    };
  };

  return new Elysia({ name: 'panel-overview' })
    .get(
      '/panel/overview',
      guarded(env, {}, async (c) => {
        const account = await reads.accountOf(c.user);
        const data = await dataFor(c, account);
        return htmlResponse(OverviewPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: account ?? undefined, data }));
      }),
    )
    .get(
      '/panel/overview/live',
      guarded(env, {}, async (c) => {
        const data = await dataFor(c, await reads.accountOf(c.user));
        return fragmentResponse(OverviewLive({ t: c.t, fmt: c.fmt, user: c.user, data }));
      }),
    )
    .get('/panel/language/:language', async ({ params, request }) => {
      // A plain link on every page sets it (no referrer is sent, see html.ts, so it lands on
      // the overview). A GET that writes: only a preference of the person who follows it,
      // which another site could at worst flip, the same as the cookie alone could be.
      if (!isLanguage(params.language)) return redirect('/panel');
      const language = params.language;
      const active = await env.services.sessions.resolve(readCookie(request, SESSION_COOKIE));
      if (active) await env.services.users.setLanguage(active.user.id, language);
      const secure = wantsSecureCookie(config.panel.secure_cookie, request, config.http.trust_proxy);
      return redirect('/panel', { 'set-cookie': languageCookie(language, secure) });
    });
}
