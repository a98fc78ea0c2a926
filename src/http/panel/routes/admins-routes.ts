import { Elysia } from 'elysia';
import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { fill } from '../i18n';
import { adminsWords } from '../i18n/admins-words';
import { AdminsPage, type AdminsPageProps } from '../views/admins-page';
import { confirmed, confirmPage } from '../views/confirm-page';
import { errorPage } from '../views/error-page';
import { PasswordResetPage } from '../views/password-page';

/**
 * Administrators only (docs/panel.md "Administrators, owners and passwords"): list them, create one, reset another
 * one's lost password. What `voice-alert admin list|create|passwd` does, through the same
 * services (src/panel/users.ts, password-changes.ts).
 */
export function adminsRoutes(env: PanelEnv) {
  const { users, passwords } = env.services;
  const render = async (c: PanelCtx, status: number, extra: Partial<AdminsPageProps> = {}) =>
    htmlResponse(AdminsPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, admins: await users.admins(), ...extra }), status);

  return new Elysia({ name: 'panel-admins' })
    .get(
      '/panel/admins',
      guarded(env, { admin: true }, (c) => render(c, 200)),
    )
    .post(
      '/panel/admins',
      guarded(env, { admin: true }, async (c) => {
        const w = adminsWords(c.t);
        const username = c.form.username ?? '';
        const r = await users.createAdmin(username, c.form.password ?? '');
        if (r.ok) {
          env.deps.log.info({ user: c.user.id, admin: r.user.id }, 'administrator created from the panel');
          return render(c, 200, { notice: fill(w.created, { login: r.user.login }) });
        }
        const error = {
          INVALID_LOGIN: w.invalidUsername,
          PASSWORD_TOO_SHORT: fill(c.t.passwordTooShort, { n: MIN_PASSWORD_LENGTH }),
          LOGIN_TAKEN: c.t.loginTaken,
          NO_ACCOUNT: c.t.notFound, // an administrator belongs to no account: cannot happen
        }[r.code];
        return render(c, 400, { error, draftUsername: username });
      }),
    )
    .post(
      '/panel/admins/:userId/password',
      guarded(env, { admin: true }, async (c) => {
        const w = adminsWords(c.t);
        const userId = c.params.userId ?? '';
        // Only another administrator: an owner's is reset under Accounts, one's own on the Password page.
        const target = (await users.admins()).find((a) => a.id === userId);
        if (!target) return errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        // resetAdmin refuses it too; here so that no question is asked about it first.
        if (target.id === c.user.id) return render(c, 400, { error: w.ownHint });
        if (!confirmed(c.form)) {
          return confirmPage({
            t: c.t,
            user: c.user,
            csrf: c.csrf,
            consequences: fill(w.confirmReset, { login: target.login }),
            action: `/panel/admins/${target.id}/password`,
            cancelHref: '/panel/admins',
          });
        }
        const r = await passwords.resetAdmin(target.id, c.user.id);
        if (!r.ok) return r.code === 'OWN_PASSWORD' ? render(c, 400, { error: w.ownHint }) : errorPage(c.t, 404, c.t.notFound, c.user, c.csrf);
        env.deps.log.info({ user: c.user.id, admin: target.id }, 'administrator password reset from the panel');
        return htmlResponse(
          PasswordResetPage({ t: c.t, user: c.user, csrf: c.csrf, login: r.login, password: r.password, back: { href: '/panel/admins', label: w.title, active: 'admins' } }),
        );
      }),
    );
}
