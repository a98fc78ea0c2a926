import { Elysia } from 'elysia';
import { ALERT_STATES, type AlertState } from '../../../call-model';
import type { AlertActionResult } from '../../../alerts';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { alertNoticeText } from '../views/alert-parts';
import { AlertPage } from '../views/alert-page';
import { AlertsPage } from '../views/alerts-page';
import { errorPage } from '../views/error-page';
import { kept, PAGE_SIZE, pageOf } from './account-pages-routes';

/**
 * One account's alerts: the list, one alert with its calls, and Acknowledge / Resolve.
 * The actions are the API's and the CLI's (src/alerts), scoped to the account in the path,
 * so another account's alert id is a 404 exactly like a missing one.
 */
export function alertsRoutes(env: PanelEnv) {
  const { log } = env.deps;
  const base = '/panel/a/:accountId/alerts';

  /** The answer to a button: back to the page it was pressed on, saying what happened. */
  const answer = (c: PanelCtx, action: 'acknowledged' | 'resolved', r: AlertActionResult) => {
    if (!r.ok) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
    log.info({ accountId: c.account.id, alertId: r.alert.id, user: c.user.id, action, changed: r.changed, cancelled: r.cancelledCallIds.length }, 'alert action from the panel');
    const done = r.changed ? action : 'unchanged';
    const path = c.form.back === 'list' ? `/panel/a/${c.account.id}/alerts` : `/panel/a/${c.account.id}/alerts/${r.alert.id}`;
    return redirect(`${path}?${new URLSearchParams({ done, n: String(r.cancelledCallIds.length) })}`);
  };
  // Recorded on the alert: who in the panel did it (acknowledged_by, docs/panel.md).
  const by = (c: PanelCtx) => `panel:${c.user.login}`;

  return new Elysia({ name: 'panel-alerts' })
    .get(
      base,
      guarded(env, { account: true }, async (c) => {
        const page = pageOf(c);
        const state = (ALERT_STATES as readonly string[]).includes(c.query.state ?? '') ? (c.query.state as AlertState) : undefined;
        const sources = await env.services.panelReads.alertSources(c.account.id);
        const source = sources.includes(c.query.source ?? '') ? c.query.source : undefined;
        const result = await env.services.panelReads.alerts({ accountId: c.account.id, state, source, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
        return htmlResponse(
          AlertsPage({
            t: c.t,
            fmt: c.fmt,
            user: c.user,
            csrf: c.csrf,
            account: c.account,
            alerts: result.rows,
            total: result.total,
            page,
            pageSize: PAGE_SIZE,
            filter: kept(c, ['state', 'source']),
            sources,
            notice: alertNoticeText(c.t, c.query),
          }),
        );
      }),
    )
    .get(
      `${base}/:alertId`,
      guarded(env, { account: true }, async (c) => {
        const found = await env.services.panelReads.alert(c.account.id, c.params.alertId ?? '');
        if (!found) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        const { alert, calls, events, texts } = found;
        return htmlResponse(
          AlertPage({
            t: c.t,
            fmt: c.fmt,
            user: c.user,
            csrf: c.csrf,
            account: c.account,
            alert,
            calls,
            events,
            texts,
            notice: alertNoticeText(c.t, c.query),
          }),
        );
      }),
    )
    .post(
      `${base}/:alertId/acknowledge`,
      guarded(env, { account: true }, async (c) => answer(c, 'acknowledged', await env.services.alerts.acknowledge(c.account.id, c.params.alertId ?? '', by(c)))),
    )
    .post(
      `${base}/:alertId/resolve`,
      guarded(env, { account: true }, async (c) => answer(c, 'resolved', await env.services.alerts.resolve(c.account.id, c.params.alertId ?? '', by(c)))),
    );
}
