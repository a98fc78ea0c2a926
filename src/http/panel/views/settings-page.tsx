import type { PanelUser } from '../../../store';
import type { Messages } from '../i18n';
import { Layout } from './layout';

export interface SettingsPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  /** Flattened `section.key` → shown value (secrets already masked). */
  entries: [string, string][];
}

export function SettingsPage({ t, user, csrf, entries }: SettingsPageProps) {
  return (
    <Layout t={t} title={t.settingsTitle} user={user} csrf={csrf} active="settings">
      <p>{t.settingsIntro}</p>
      <div class="table-wrap">
        <table id="settings-table">
          <thead>
            <tr>
              <th scope="col">{t.key}</th>
              <th scope="col">{t.value}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map(([k, v]) => (
              <tr>
                <td>
                  <code safe>{k}</code>
                </td>
                <td>
                  <code safe>{v}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section class="card" aria-labelledby="say-title">
        <h2 id="say-title">{t.sayTitle}</h2>
        <p id="say-state">{t.notAvailable}</p>
      </section>
      <section class="card" aria-labelledby="sip-title">
        <h2 id="sip-title">{t.sipTitle}</h2>
        <p id="sip-state">{t.notAvailable}</p>
      </section>
    </Layout>
  );
}
