import { Elysia } from 'elysia';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { deskWords } from '../i18n/desk-words';
import { confirmed, confirmPage } from '../views/confirm-page';
import { DeskPage, type DeskPageProps } from '../views/desk-page';

/**
 * An account's voice desk (docs/telephony.md "Voice desk: calls in"), as `desk pin` and
 * `desk set-policy`: a new PIN asks first (the old one stops working) and is shown once.
 */
export function deskRoutes(env: PanelEnv) {
  const { desk } = env.services;
  const path = '/panel/a/:accountId/desk';
  const render = async (c: PanelCtx, status: number, extra: Partial<DeskPageProps> = {}) => {
    const [setup, { list: policies }] = await Promise.all([desk.setup(c.account.id), env.services.panelReads.policies(c.account.id)]);
    const enabled = env.deps.config.voice_desk.enabled;
    return htmlResponse(DeskPage({ t: c.t, user: c.user, csrf: c.csrf, account: c.account, enabled, ...setup, policies, ...extra }), status);
  };
  return new Elysia({ name: 'panel-desk' })
    .get(path, guarded(env, { account: true }, (c) => render(c, 200, { notice: c.query.policy !== undefined ? deskWords(c.t).policySaved : undefined })))
    .post(
      `${path}/pin`,
      guarded(env, { account: true }, async (c) => {
        if (!confirmed(c.form))
          return confirmPage({ t: c.t, user: c.user, csrf: c.csrf, consequences: deskWords(c.t).confirmPin, action: `/panel/a/${c.account.id}/desk/pin`, cancelHref: `/panel/a/${c.account.id}/desk` });
        const r = await desk.newPin(c.account.id);
        // The page itself, not a redirect: the PIN is shown this once.
        return r.ok ? render(c, 200, { pin: r.pin, hasPin: true }) : render(c, 404, { error: c.t.notFound });
      }),
    )
    .post(
      `${path}/policy`,
      guarded(env, { account: true }, async (c) => {
        const r = await desk.setPolicy(c.account.id, (c.form.policy ?? '').trim());
        if (r.ok) return redirect(`/panel/a/${c.account.id}/desk?policy`);
        return render(c, r.code === 'policy_not_found' ? 400 : 404, { error: r.code === 'policy_not_found' ? deskWords(c.t).policyNotFound : c.t.notFound });
      }),
    );
}
