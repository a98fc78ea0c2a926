import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { PanelUser } from '../../../store';
import { fill, type Messages } from '../i18n';
import { Layout, type NavId } from './layout';
import { CopyValue, CsrfField, Notice } from './parts';

export interface PasswordPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  notice?: string;
  error?: string;
}

/** Any panel user: change their own password (the current one required). */
export function PasswordPage({ t, user, csrf, notice, error }: PasswordPageProps) {
  return (
    <Layout t={t} title={t.passwordTitle} user={user} csrf={csrf}>
      <p>{t.passwordIntro}</p>
      <Notice text={notice} />
      <Notice kind="error" text={error} />
      <form method="post" action="/panel/password">
        <CsrfField csrf={csrf} />
        {/* A hidden user name lets password managers file the new password under the right login. */}
        <input type="hidden" name="username" autocomplete="username" value={user.login} />
        <div class="field">
          <label for="current_password">{t.currentPassword}</label>
          <input id="current_password" name="current_password" type="password" autocomplete="current-password" required />
        </div>
        <div class="field">
          <label for="new_password">{t.newPassword}</label>
          <input id="new_password" name="new_password" type="password" autocomplete="new-password" required minlength={String(MIN_PASSWORD_LENGTH)} aria-describedby="new_password_hint" />
          <p class="hint" id="new_password_hint">{fill(t.passwordTooShort, { n: MIN_PASSWORD_LENGTH })}</p>
        </div>
        <div class="field">
          <label for="new_password_again">{t.newPasswordAgain}</label>
          <input id="new_password_again" name="new_password_again" type="password" autocomplete="new-password" required minlength={String(MIN_PASSWORD_LENGTH)} />
        </div>
        <button type="submit">{t.changePassword}</button>
      </form>
    </Layout>
  );
}

/** Where a reset page leads back to: the page the reset was asked from (Accounts by default). */
export interface ResetBack {
  href: string;
  label: string;
  active: NavId;
}

/** After an administrator reset an owner's (or another administrator's) password: the new one, shown once. */
export function PasswordResetPage({ t, user, csrf, login, password, back }: { t: Messages; user: PanelUser; csrf: string; login: string; password: string; back?: ResetBack }) {
  const to = back ?? { href: '/panel/accounts', label: t.accountsTitle, active: 'accounts' };
  return (
    <Layout t={t} title={t.resetPassword} user={user} csrf={csrf} active={to.active}>
      <section class="notice secret" aria-labelledby="reset-title">
        <h2 id="reset-title" safe>
          {fill(t.passwordResetDone, { login })}
        </h2>
        <CopyValue t={t} id="reset-password" label={t.newPassword} value={password} />
      </section>
      <p>
        <a href={to.href}>{to.label}</a>
      </p>
    </Layout>
  );
}
