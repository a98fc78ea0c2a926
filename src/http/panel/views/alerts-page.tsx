import { ALERT_STATES } from '../../../call-model';
import type { Account, AlertRecord, CallStateCounts, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';

/** The alerts list's source filter and "by whom" (docs/panel.md). */
const ALERT_LIST_WORDS = {
  en: { source: 'Source', allSources: 'All sources', by: 'by {who}' },
  tr: { source: 'Kaynak', allSources: 'Tüm kaynaklar', by: '{who} tarafından' },
};
const alertListWords = (t: Messages) => (t.locale.startsWith('tr') ? ALERT_LIST_WORDS.tr : ALERT_LIST_WORDS.en);
import { AlertButtons, AlertStateBadge, callStatesText } from './alert-parts';
import { Layout } from './layout';
import { Notice, Pager } from './parts';

export interface AlertsPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  alerts: (AlertRecord & { callStates: CallStateCounts })[];
  total: number;
  page: number;
  pageSize: number;
  /** The filter as chosen (state, source), kept in the form and the paging links. */
  filter: Record<string, string>;
  /** The sources the account's alerts came from (the source filter's choices). */
  sources: string[];
  notice?: string | null;
}

/** One account's alerts, newest first, with the buttons a person acts with. */
export function AlertsPage(p: AlertsPageProps) {
  const { t, fmt, filter } = p;
  const path = `/panel/a/${p.account.id}/alerts`;
  return (
    <Layout t={t} title={t.alertsTitle} user={p.user} csrf={p.csrf} account={p.account} active="alerts">
      <Notice text={p.notice} />
      <form class="filters" method="get" action={path} aria-label={t.filter}>
        <div class="field">
          <label for="f-state">{t.state}</label>
          <select id="f-state" name="state">
            <option value="">{t.allStates}</option>
            {ALERT_STATES.map((s) => (
              <option value={s} selected={filter.state === s}>
                {t.alertStates[s] ?? s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-source">{alertListWords(t).source}</label>
          <select id="f-source" name="source">
            <option value="">{alertListWords(t).allSources}</option>
            {p.sources.map((s) => (
              <option value={s} selected={filter.source === s} safe>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t.apply}</button>
      </form>
      {p.alerts.length === 0 ? (
        <p>{t.noAlerts}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="alerts-table">
            <thead>
              <tr>
                <th scope="col">{t.createdAt}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">{alertListWords(t).source}</th>
                <th scope="col">{t.alertKey}</th>
                <th scope="col">{t.message}</th>
                <th scope="col">{t.alertCalls}</th>
                <th scope="col">{t.actions}</th>
              </tr>
            </thead>
            <tbody>
              {p.alerts.map((a) => (
                <tr data-alert-id={a.id}>
                  <td data-label={t.createdAt}>
                    <a href={`${path}/${a.id}`}>{fmt.dateTime(a.createdAt)}</a>
                  </td>
                  <td data-label={t.state}>
                    <AlertStateBadge t={t} state={a.state} />
                  </td>
                  <td data-label={alertListWords(t).source} data-testid="alert-source" safe>
                    {a.source}
                  </td>
                  <td data-label={t.alertKey}>{a.key === null ? '—' : <code safe>{a.key}</code>}</td>
                  <td data-label={t.message} safe>
                    {a.message}
                  </td>
                  <td data-label={t.alertCalls} data-testid="alert-calls" safe>
                    {callStatesText(t, a.callStates)}
                  </td>
                  <td data-label={t.actions}>
                    {a.acknowledgedBy ? (
                      <p class="hint" data-testid="alert-by" safe>
                        {fill(alertListWords(t).by, { who: a.acknowledgedBy })}
                      </p>
                    ) : a.state === 'resolved' && a.stateReason ? (
                      // Who resolved it is kept only as its reason ("resolved by panel:ops", src/alerts/lifecycle.ts
                      // resolveAlert), shown as the alert's page shows it.
                      <p class="hint" data-testid="alert-by" safe>
                        {a.stateReason}
                      </p>
                    ) : (
                      ''
                    )}
                    <AlertButtons t={t} csrf={p.csrf} accountId={p.account.id} alert={a} back="list" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager t={t} path={path} query={filter} page={p.page} pageSize={p.pageSize} total={p.total} />
    </Layout>
  );
}
