import type { Children } from '@kitajs/html';
import type { Account, PanelUser } from '../../../store';
import type { Messages } from '../i18n';
import { overviewWords } from '../i18n/overview-words';
import { FAVICON, LanguageSwitch } from './language-switch';
import { peopleWords } from '../i18n/people-words';
import { coverageWords } from '../i18n/coverage-words';
import { scheduleWords } from '../i18n/schedule-words';
import { importWords } from '../i18n/import-words';
import { maintenanceWords } from '../i18n/maintenance-words';
import { heartbeatWords } from '../i18n/heartbeat-words';
import { selfTestWords } from '../i18n/self-test-words';
import { deskWords } from '../i18n/desk-words';
import { adminsWords } from '../i18n/admins-words';

export type NavId = 'overview' | 'accounts' | 'settings' | 'keys' | 'credit' | 'calls' | 'alerts' | 'history' | 'test-call' | 'policies' | 'callbacks' | 'schedules' | 'maintenance' | 'heartbeats' | 'trunks' | 'desk' | 'people' | 'coverage' | 'import' | 'admins';

export interface LayoutProps {
  t: Messages;
  title: string;
  /** Absent on the login and error pages before a session exists. */
  user?: PanelUser;
  csrf?: string;
  account?: Account;
  active?: NavId;
  children?: Children;
}

const current = (active: NavId | undefined, id: NavId) => (active === id ? 'page' : undefined);

/** Every page: skip link, top bar (role menu, logout), the account's menu, then main. */
export function Layout({ t, title, user, csrf, account, active, children }: LayoutProps) {
  const base = account ? `/panel/a/${account.id}` : '';
  return (
    <html lang={t.locale.slice(0, 2)}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {csrf ? <meta name="csrf-token" content={csrf} /> : ''}
        <title>{`${title} · ${t.appName}`}</title>
        <link rel="icon" type="image/svg+xml" href={FAVICON} />
        <link rel="stylesheet" href="/panel/assets/panel.css" />
        <script src="/panel/assets/htmx.min.js" defer></script>
        <script src="/panel/assets/panel.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">
          {t.skipToContent}
        </a>
        <header class="top">
          <a class="brand" href="/panel">
            {t.appName}
          </a>
          {user?.role === 'admin' ? (
            <nav aria-label={t.mainNav}>
              <ul>
                <li>
                  <a href="/panel/accounts" aria-current={current(active, 'accounts')}>
                    {t.accountsTitle}
                  </a>
                </li>
                <li>
                  <a href="/panel/settings" aria-current={current(active, 'settings')}>
                    {t.settingsTitle}
                  </a>
                </li>
                <li>
                  <a href="/panel/trunks" aria-current={current(active, 'trunks')}>
                    {selfTestWords(t).trunksTitle}
                  </a>
                </li>
                <li>
                  <a href="/panel/admins" aria-current={current(active, 'admins')}>
                    {adminsWords(t).title}
                  </a>
                </li>
              </ul>
            </nav>
          ) : (
            ''
          )}
          {user ? (
            <>
              <a href="/panel/overview" aria-current={current(active, 'overview')}>
                {overviewWords(t).title}
              </a>
              <span class="who">
                {t.signedInAs} <span safe>{user.login}</span>
              </span>
              <a href="/panel/password">{t.passwordTitle}</a>
              <form method="post" action="/panel/logout">
                <input type="hidden" name="_csrf" value={csrf} />
                <button type="submit">{t.logout}</button>
              </form>
            </>
          ) : (
            ''
          )}
          <LanguageSwitch t={t} />
        </header>
        {account ? (
          <nav class="sub" aria-label={t.accountNav}>
            <ul>
              <li class="account-name" safe>
                {account.name}
              </li>
              <li>
                <a href={`${base}/keys`} aria-current={current(active, 'keys')}>
                  {t.keysTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/credit`} aria-current={current(active, 'credit')}>
                  {t.creditTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/calls`} aria-current={current(active, 'calls')}>
                  {t.callsTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/alerts`} aria-current={current(active, 'alerts')}>
                  {t.alertsTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/history`} aria-current={current(active, 'history')}>
                  {t.historyTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/policies`} aria-current={current(active, 'policies')}>
                  {t.policies.title}
                </a>
              </li>
              <li>
                <a href={`${base}/schedules`} aria-current={current(active, 'schedules')}>
                  {scheduleWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/heartbeats`} aria-current={current(active, 'heartbeats')}>
                  {heartbeatWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/people`} aria-current={current(active, 'people')}>
                  {peopleWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/coverage`} aria-current={current(active, 'coverage')}>
                  {coverageWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/maintenance`} aria-current={current(active, 'maintenance')}>
                  {maintenanceWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/import`} aria-current={current(active, 'import')}>
                  {importWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/desk`} aria-current={current(active, 'desk')}>
                  {deskWords(t).title}
                </a>
              </li>
              <li>
                <a href={`${base}/test-call`} aria-current={current(active, 'test-call')}>
                  {t.testCallTitle}
                </a>
              </li>
              <li>
                <a href={`${base}/callbacks`} aria-current={current(active, 'callbacks')}>
                  {t.callbacks.title}
                </a>
              </li>
            </ul>
          </nav>
        ) : (
          ''
        )}
        <main id="main" tabindex="-1">
          <h1 safe>{title}</h1>
          {children}
        </main>
        <p id="copy-status" class="visually-hidden" role="status" aria-live="polite"></p>
      </body>
    </html>
  );
}
