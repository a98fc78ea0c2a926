import type { Messages } from '../i18n';
import { Layout } from './layout';
import { Notice } from './parts';

export function LoginPage({ t, csrf, error, info, login }: { t: Messages; csrf: string; error?: string; info?: string; login?: string }) {
  return (
    <Layout t={t} title={t.loginTitle}>
      <div class="login-box">
        <Notice kind="error" text={error} />
        <Notice text={info} />
        <form method="post" action="/panel/login">
          <input type="hidden" name="_csrf" value={csrf} />
          <div class="field">
            <label for="login">{t.loginName}</label>
            <input id="login" name="login" type="text" autocomplete="username" required autofocus value={login ?? ''} />
          </div>
          <div class="field">
            <label for="password">{t.password}</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <button type="submit">{t.loginSubmit}</button>
        </form>
      </div>
    </Layout>
  );
}
