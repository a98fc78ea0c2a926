import { windowState } from '../../../outward';
import type { Account, MaintenanceWindow, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { maintenanceWords } from '../i18n/maintenance-words';
import { DateTimeField } from './date-time-field';
import { Layout } from './layout';
import { CsrfField, Notice, PostButton } from './parts';

export interface MaintenancePageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  windows: MaintenanceWindow[];
  now: number;
  /** credit.timezone: the form's local times are read in it, as the page's dates are shown. */
  timeZone: string;
  /** The form as typed, shown again with the error. */
  draft?: { start: string; end: string; match: string; reason: string };
  notice?: string;
  error?: string;
}

/** An account's maintenance windows (docs/on-call.md "Maintenance windows"): the list, delete, and a form to create one. */
export function MaintenancePage(p: MaintenancePageProps) {
  const { t, fmt, csrf, account } = p;
  const w = maintenanceWords(t);
  const base = `/panel/a/${account.id}/maintenance`;
  const draft = p.draft ?? { start: '', end: '', match: '', reason: '' };
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={csrf} account={account} active="maintenance">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{w.intro}</p>
      {p.windows.length === 0 ? (
        <p>{w.none}</p>
      ) : (
        // A table like the others: its own scroll frame, and labelled lines on a phone (stacked rows).
        <div class="table-wrap">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">{w.start}</th>
                <th scope="col">{w.end}</th>
                <th scope="col">{w.state}</th>
                <th scope="col">{w.match}</th>
                <th scope="col">{w.reason}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {p.windows.map((mw) => (
                <tr data-window={mw.id}>
                  <td data-label={w.start}>{fmt.dateTime(mw.startsAt)}</td>
                  <td data-label={w.end}>{fmt.dateTime(mw.endsAt)}</td>
                  <td data-label={w.state}>{w.states[windowState(mw, p.now)]}</td>
                  <td data-label={w.match}>
                    <div>{mw.matches.length === 0 ? w.everything : mw.matches.map((m) => <><code safe>{m}</code> </>)}</div>
                  </td>
                  <td data-label={w.reason} safe>
                    {mw.reason}
                  </td>
                  <td data-label={t.actions}>
                    <PostButton action={`${base}/${mw.id}/delete`} csrf={csrf} label={w.delete} kind="danger" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section class="card" aria-labelledby="new-window">
        <h2 id="new-window">{w.create}</h2>
        <form method="post" action={base}>
          <CsrfField csrf={csrf} />
          <p class="hint" safe>{fill(w.timesHint, { tz: p.timeZone })}</p>
          <DateTimeField t={t} id="mw-start" name="start" label={w.start} value={draft.start} required />
          <DateTimeField t={t} id="mw-end" name="end" label={w.end} value={draft.end} required />
          <div class="field">
            <label for="mw-match">{w.match}</label>
            <textarea id="mw-match" name="match" rows="3" aria-describedby="mw-match-hint" safe>
              {draft.match}
            </textarea>
            <p class="hint" id="mw-match-hint">{w.matchHint}</p>
          </div>
          <div class="field">
            <label for="mw-reason">{w.reason}</label>
            <input id="mw-reason" name="reason" maxlength="500" value={draft.reason} />
          </div>
          <button type="submit">{t.create}</button>
        </form>
      </section>
    </Layout>
  );
}
