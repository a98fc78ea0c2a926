import { Elysia } from 'elysia';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { errorPage } from '../views/error-page';
import { CallbacksPage, type CallbacksPageProps } from '../views/callbacks-page';

/** How many deliveries the page lists. */
const RECENT = 50;

/** The account's outcome callbacks: the URL (set with a secret shown once, clear) and its recent deliveries. */
export function callbacksRoutes(env: PanelEnv) {
  const { callbacks } = env.services;
  const path = '/panel/a/:accountId/callbacks';
  const render = async (c: PanelCtx, status: number, extra: Partial<CallbacksPageProps> = {}) => {
    const shown = await callbacks.show(c.account.id, RECENT);
    if (!shown) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
    return htmlResponse(CallbacksPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, ...shown, ...extra }), status);
  };
  return new Elysia({ name: 'panel-callbacks' })
    .get(
      path,
      guarded(env, { account: true }, (c) => render(c, 200, { notice: c.query.cleared !== undefined ? c.t.callbacks.cleared : undefined })),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await callbacks.set(c.account.id, c.form.url ?? '');
        if (!r.ok) {
          if (r.code === 'NO_ACCOUNT') return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
          return render(c, 400, { error: c.t.callbacks.invalidUrl, draft: c.form.url ?? '' });
        }
        env.deps.log.info({ accountId: c.account.id, user: c.user.id }, 'callback URL set from the panel');
        return render(c, 200, { secret: r.secret });
      }),
    )
    .post(
      `${path}/clear`,
      guarded(env, { account: true }, async (c) => {
        const r = await callbacks.clear(c.account.id);
        if (!r.ok) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        env.deps.log.info({ accountId: c.account.id, user: c.user.id }, 'callback URL cleared from the panel');
        return redirect(`/panel/a/${c.account.id}/callbacks?cleared`);
      }),
    );
}
