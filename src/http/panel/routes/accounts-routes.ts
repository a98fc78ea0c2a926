import { Elysia } from 'elysia';
import { isPlan } from '../../../credit';
import { periodOf } from '../../../credit';
import { createAccountWithOwner, MIN_PASSWORD_LENGTH, parseMonthlyCredit, type PanelUsersService } from '../../../panel';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill, type Messages } from '../i18n';
import { AccountsPage, type AccountsPageProps } from '../views/accounts-page';

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
    default:
      return t.notFound;
  }
}

/** Administrator: list, create, change plan and credit, disable, add owners. */
export function accountsRoutes(env: PanelEnv) {
  const { store, clock, config } = env.deps;
  const render = (c: PanelCtx, status: number, extra: Partial<AccountsPageProps>) => {
    const period = periodOf(clock(), config.credit.timezone);
    const accounts = store.accounts.list().map((account) => ({
      account,
      owners: store.panelUsers.listForAccount(account.id),
      used: store.usage.usedIn(account.id, period),
    }));
    return htmlResponse(AccountsPage({ t: c.t, user: c.user, csrf: c.csrf, accounts, ...extra }), status);
  };
  const users: PanelUsersService = env.users;

  return new Elysia({ name: 'panel-accounts' })
    .get(
      '/panel/accounts',
      guarded(env, { admin: true }, (c) => render(c, 200, { notice: c.query.ok !== undefined ? c.t.accountUpdated : undefined })),
    )
    .post(
      '/panel/accounts',
      guarded(env, { admin: true }, async (c) => {
        const r = await createAccountWithOwner(store, users, {
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
        const plan = (c.form.plan ?? '').toLowerCase();
        const credit = parseMonthlyCredit(c.form.monthly_credit);
        if (!isPlan(plan)) return render(c, 400, { error: c.t.notFound });
        if (credit === undefined) return render(c, 400, { error: c.t.invalidCredit });
        await store.writes.run(() => store.accounts.setPlan(c.account.id, plan, credit));
        return redirect('/panel/accounts?ok');
      }),
    )
    .post(
      '/panel/accounts/:accountId/disabled',
      guarded(env, { admin: true, account: true }, async (c) => {
        await store.writes.run(() => store.accounts.setDisabled(c.account.id, c.form.disabled === '1'));
        return redirect('/panel/accounts?ok');
      }),
    )
    .post(
      '/panel/accounts/:accountId/owners',
      guarded(env, { admin: true, account: true }, async (c) => {
        const r = await users.createOwner(c.account.id, c.form.email ?? '', c.form.password || undefined);
        if (!r.ok) return render(c, 400, { error: errorText(c.t, r.code) });
        const generated = r.generatedPassword ? { login: r.user.login, password: r.generatedPassword } : undefined;
        return render(c, 200, { notice: fill(c.t.ownerCreated, { login: r.user.login }), generated });
      }),
    );
}
