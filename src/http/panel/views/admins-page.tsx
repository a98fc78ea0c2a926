import { MIN_PASSWORD_LENGTH } from '../../../panel';
import type { PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { adminsWords } from '../i18n/admins-words';
import { Layout } from './layout';
import { CsrfField, Notice, PostButton } from './parts';

export interface AdminsPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  admins: PanelUser[];
  notice?: string;
  error?: string;
  /** The user name typed, put back in the form after an error (never the password). */
  draftUsername?: string;
}

/**
 * Administrators only: every administrator, a new one, another one's lost password reset
 * (asked first, then shown once: PasswordResetPage). One's own password is the Password page's.
 */
export function AdminsPage({ t, fmt, user, csrf, admins, notice, error, draftUsername = '' }: AdminsPageProps) {
  const w = adminsWords(t);
  return (
    <Layout t={t} title={w.title} user={user} csrf={csrf} active="admins">
      <p>{w.intro}</p>
      <Notice text={notice} />
      <Notice kind="error" text={error} />
      <div class="table-wrap">
        {admins.length === 0 ? (
          <p>{w.none}</p>
        ) : (
          <table class="stack" data-testid="admins">
            <thead>
              <tr>
                <th scope="col">{w.username}</th>
                <th scope="col">{t.createdAt}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {admins.map((a) => (
                <tr data-user-id={a.id}>
                  <td data-label={w.username}>
                    <span safe>{a.login}</span>
                    {a.id === user.id ? ` (${w.you})` : ''}
                  </td>
                  <td data-label={t.createdAt}>{fmt.dateTime(a.createdAt)}</td>
                  <td data-label={t.actions}>
                    {a.id === user.id ? (
                      <a href="/panel/password">{t.passwordTitle}</a>
                    ) : (
                      <PostButton action={`/panel/admins/${a.id}/password`} csrf={csrf} label={t.resetPassword} kind="secondary" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <p class="hint">{w.ownHint}</p>
      <section class="card" aria-labelledby="new-admin">
        <h2 id="new-admin">{w.create}</h2>
        <form method="post" action="/panel/admins">
          <CsrfField csrf={csrf} />
          <div class="field">
            <label for="username">{w.username}</label>
            <input id="username" name="username" type="text" required minlength="3" maxlength="64" autocomplete="off" aria-describedby="username_hint" value={draftUsername} />
            <p class="hint" id="username_hint">{w.usernameHint}</p>
          </div>
          <div class="field">
            <label for="password">{w.password}</label>
            <input id="password" name="password" type="password" required autocomplete="new-password" minlength={String(MIN_PASSWORD_LENGTH)} aria-describedby="password_hint" />
            <p class="hint" id="password_hint">{fill(t.passwordTooShort, { n: MIN_PASSWORD_LENGTH })}</p>
          </div>
          <button type="submit">{t.create}</button>
        </form>
      </section>
    </Layout>
  );
}
