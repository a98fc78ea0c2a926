import { Elysia } from 'elysia';
import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { fill } from '../i18n';
import { confirmed, confirmPage } from '../views/confirm-page';
import { errorPage } from '../views/error-page';
import { PasswordPage, PasswordResetPage } from '../views/password-page';

/** GET/POST /panel/password (anyone, their own), POST …/owners/:userId/password (administrator resets an owner's). */
export function passwordRoutes(env: PanelEnv) {
  const page = (c: PanelCtx, status: number, extra: { notice?: string; error?: string } = {}) =>
    htmlResponse(PasswordPage({ t: c.t, user: c.user, csrf: c.csrf, ...extra }), status);

  return new Elysia({ name: 'panel-password' })
    .get(
      '/panel/password',
      guarded(env, {}, (c) => page(c, 200)),
    )
    .post(
      '/panel/password',
      guarded(env, {}, async (c) => {
        const next = c.form.new_password ?? '';
        if (next !== (c.form.new_password_again ?? '')) return page(c, 400, { error: c.t.passwordMismatch });
        const r = await env.services.passwords.change({ userId: c.user.id, current: c.form.current_password ?? '', next, ip: c.ip, keepToken: c.token });
        if (r.ok) {
          env.deps.log.info({ user: c.user.id }, 'panel password changed');
          return page(c, 200, { notice: c.t.passwordChanged });
        }
        switch (r.code) {
          case 'TOO_MANY_ATTEMPTS': {
            const res = page(c, 429, { error: fill(c.t.loginThrottled, { n: Math.ceil(r.retryAfterS / 60) }) });
            res.headers.set('retry-after', String(r.retryAfterS));
            return res;
          }
          case 'PASSWORD_TOO_SHORT':
            return page(c, 400, { error: fill(c.t.passwordTooShort, { n: MIN_PASSWORD_LENGTH }) });
          default: // WRONG_PASSWORD; NO_USER cannot happen with a live session
            return page(c, 403, { error: c.t.passwordWrong });
        }
      }),
    )
    .post(
      '/panel/accounts/:accountId/owners/:userId/password',
      guarded(env, { admin: true, account: true }, async (c) => {
        // Only an owner of the account in the path: anything else is not found.
        const owner = await env.services.panelReads.ownerInAccount(c.account.id, c.params.userId ?? '');
        if (!owner) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        if (!confirmed(c.form)) {
          return confirmPage({
            t: c.t,
            user: c.user,
            csrf: c.csrf,
            consequences: fill(c.t.confirmReset, { login: owner.login }),
            action: `/panel/accounts/${c.account.id}/owners/${owner.id}/password`,
            cancelHref: '/panel/accounts',
          });
        }
        const r = await env.services.passwords.resetOwner(owner.id);
        if (!r.ok) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        env.deps.log.info({ user: c.user.id, owner: owner.id, accountId: c.account.id }, 'owner password reset from the panel');
        return htmlResponse(PasswordResetPage({ t: c.t, user: c.user, csrf: c.csrf, login: r.login, password: r.password }));
      }),
    );
}
