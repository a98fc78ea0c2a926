import type { TrunkStatus } from '../../../calls';
import type { PanelUser } from '../../../store';
import { fill, type Messages } from '../i18n';
import { Layout } from './layout';

export interface SipState {
  configured: { server: string; transport: string; user: string } | null;
  lastAnswer: { code: number; reason: string; at: string } | null;
  /** The trunk as the running dialer sees it; null when this process has no telephony. */
  live: TrunkStatus | null;
}

/** One sentence for the trunk's live state, e.g. "Up, registered with the PBX." */
export function describeTrunk(t: Messages, live: TrunkStatus): string {
  const state = { not_configured: t.sipStateNotConfigured, starting: t.sipStateStarting, up: t.sipStateUp, stopped: t.sipStateStopped }[live.state];
  const registration = live.registered === null ? '' : live.registered ? ` ${t.sipRegistered}` : ` ${t.sipNotRegistered}`;
  const error = live.lastError ? ` ${fill(t.sipLastError, { error: live.lastError })}` : '';
  return `${state}${registration}${error}`;
}

export interface SettingsPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  /** Flattened `section.key` → shown value (secrets already masked). */
  entries: [string, string][];
  /** The text in the say box; when set, the page carries a player for it. */
  say?: string;
  sip: SipState;
}

export function SettingsPage({ t, user, csrf, entries, say, sip }: SettingsPageProps) {
  return (
    <Layout t={t} title={t.settingsTitle} user={user} csrf={csrf} active="settings">
      <section class="card" aria-labelledby="sip-title">
        <h2 id="sip-title">{t.sipTitle}</h2>
        <p id="sip-state" safe>
          {sip.configured
            ? fill(t.sipConfigured, { server: sip.configured.server, transport: sip.configured.transport, user: sip.configured.user })
            : t.sipNotConfigured}
        </p>
        {sip.configured ? (
          <>
            <p safe>
              {sip.lastAnswer ? fill(t.sipLastAnswer, { code: sip.lastAnswer.code, reason: sip.lastAnswer.reason, at: sip.lastAnswer.at }) : t.sipNoAnswerYet}
            </p>
            {sip.live ? (
              <p id="sip-live" safe>
                {describeTrunk(t, sip.live)}
              </p>
            ) : (
              ''
            )}
          </>
        ) : (
          ''
        )}
      </section>
      <section class="card" aria-labelledby="say-title">
        <h2 id="say-title">{t.sayTitle}</h2>
        <p>{t.sayIntro}</p>
        {/* GET: rendering changes nothing, and the player's URL needs no token. */}
        <form method="get" action="/panel/settings#say-title">
          <div class="field">
            <label for="say">{t.sayText}</label>
            <textarea id="say" name="say" required maxlength="500" safe>
              {say ?? ''}
            </textarea>
          </div>
          <button type="submit">{t.sayButton}</button>
        </form>
        {say ? (
          <p>
            <audio id="say-player" controls="" autoplay src={`/panel/settings/say.wav?${new URLSearchParams({ text: say }).toString()}`} aria-label={t.sayTitle}></audio>
          </p>
        ) : (
          ''
        )}
      </section>
      <h2>{t.settingsTitle}</h2>
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
    </Layout>
  );
}
