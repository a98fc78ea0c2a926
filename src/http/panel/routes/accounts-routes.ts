import { Elysia } from 'elysia';
import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill, type Messages } from '../i18n';
import { AccountsPage, type AccountsPageProps } from '../views/accounts-page';
import { confirmed, confirmPage } from '../views/confirm-page';

function errorText(t: Messages, code: string): string {
  switch (code) {
    case 'NAME_REQUIRED':
      return t.nameRequired;
    case 'INVALID_CREDIT':
      return t.invalidCredit;
    case 'INVALID_LOGIN':
      return t.invalidEmail;
    case 'PASSWORD_TOO_SHORT':
      return fill(t.passwordTooShort, { n: MIN_PASSWORD_LENGTH });
    case 'LOGIN_TAKEN':
      return t.loginTaken;
    default: // INVALID_PLAN, NO_ACCOUNT: only a hand-made request gets here
      return t.notFound;
  }
}

/** Administrator: list, create, change plan and credit, disable, add owners. */
export function accountsRoutes(env: PanelEnv) {
  const render = async (c: PanelCtx, status: number, extra: Partial<AccountsPageProps>) => {
    const accounts = await env.services.panelReads.accounts();
    return htmlResponse(AccountsPage({ t: c.t, user: c.user, csrf: c.csrf, accounts, ...extra }), status);
  };
  const { accounts, owners } = env.services;

  return new Elysia({ name: 'panel-accounts' })
    .get(
      '/panel/accounts',
      guarded(env, { admin: true }, (c) => render(c, 200, { notice: c.query.ok !== undefined ? c.t.accountUpdated : undefined })),
    )
    .post(
      '/panel/accounts',
      guarded(env, { admin: true }, async (c) => {
        const r = await accounts.create({
          name: c.form.name ?? '',
          plan: c.form.plan ?? '',
          monthlyCredit: c.form.monthly_credit,
          ownerEmail: c.form.owner_email,
          ownerPassword: c.form.owner_password,
        });
        if (!r.ok) return render(c, 400, { error: errorText(c.t, r.code), draft: c.form });
        const generated = r.owner?.generatedPassword ? { login: r.owner.login, password: r.owner.generatedPassword } : undefined;
        return render(c, 200, { notice: fill(c.t.accountCreated, { name: r.account.name }), generated });
      }),
    )
    .post(
      '/panel/accounts/:accountId/plan',
      guarded(env, { admin: true, account: true }, async (c) => {
        // The form always sends the field: empty means the plan's own amount.
        const r = await accounts.setPlan(c.account.id, { plan: c.form.plan ?? '', monthlyCredit: c.form.monthly_credit ?? '' });
        if (!r.ok) return render(c, 400, { error: errorText(c.t, r.code) });
        return redirect('/panel/accounts?ok');
      }),
    )
    .post(
      '/panel/accounts/:accountId/disabled',
      guarded(env, { admin: true, account: true }, async (c) => {
        const disable = c.form.disabled === '1';
        // Disabling breaks every tool of the account: asked first. Enabling breaks nothing.
        if (disable && !confirmed(c.form)) {
          return confirmPage({
            t: c.t,
            user: c.user,
            csrf: c.csrf,
            consequences: fill(c.t.confirmDisable, { name: c.account.name }),
            action: `/panel/accounts/${c.account.id}/disabled`,
            fields: { disabled: '1' },
            cancelHref: '/panel/accounts',
          });
        }
        const r = await accounts.setDisabled(c.account.id, disable);
        if (!r.ok) return render(c, 404, { error: errorText(c.t, r.code) });
        return redirect('/panel/accounts?ok');
      }),
    )
    .post(
      '/panel/accounts/:accountId/owners',
      guarded(env, { admin: true, account: true }, async (c) => {
        const r = await owners.createOwner(c.account.id, c.form.email ?? '', c.form.password || undefined);
        if (!r.ok) return render(c, 400, { error: errorText(c.t, r.code) });
        const generated = r.generatedPassword ? { login: r.user.login, password: r.generatedPassword } : undefined;
        return render(c, 200, { notice: fill(c.t.ownerCreated, { login: r.user.login }), generated });
      }),
    );
}
