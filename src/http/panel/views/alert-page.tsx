import type { Account, AlertRecord, CallRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { maintenanceWords } from '../i18n/maintenance-words';
import { AlertButtons, AlertStateBadge } from './alert-parts';
import { Layout } from './layout';
import { Notice, StateBadge } from './parts';

export interface AlertPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  alert: AlertRecord;
  calls: CallRecord[];
  notice?: string | null;
}

/** One alert: its times, who acknowledged it, and every call placed (or bundled) for it. */
export function AlertPage(p: AlertPageProps) {
  const { t, fmt, alert: a } = p;
  const base = `/panel/a/${p.account.id}`;
  return (
    <Layout t={t} title={fill(t.alertTitle, { id: a.id })} user={p.user} csrf={p.csrf} account={p.account} active="alerts">
      <Notice text={p.notice} />
      <section class="card" id="alert-detail" data-alert-id={a.id} data-alert-state={a.state}>
        <p>
          <AlertStateBadge t={t} state={a.state} />
        </p>
        <dl class="facts">
          <dt>{t.alertKey}</dt>
          <dd>{a.key === null ? '—' : <code safe>{a.key}</code>}</dd>
          <dt>{t.source}</dt>
          <dd safe>{t.sources[a.source] ?? a.source}</dd>
          <dt>{t.message}</dt>
          <dd safe>{a.message}</dd>
          <dt>{t.createdAt}</dt>
          <dd>{fmt.dateTime(a.createdAt)}</dd>
          <dt>{t.updated}</dt>
          <dd>{fmt.dateTime(a.updatedAt)}</dd>
          <dt>{t.acknowledged}</dt>
          <dd>{fmt.dateTime(a.acknowledgedAt)}</dd>
          <dt>{t.acknowledgedBy}</dt>
          <dd data-testid="acknowledged-by" safe>
            {a.acknowledgedBy ?? '—'}
          </dd>
          <dt>{t.resolvedAt}</dt>
          <dd>{fmt.dateTime(a.resolvedAt)}</dd>
          <dt>{t.reason}</dt>
          <dd safe>{a.stateReason ?? '—'}</dd>
          {a.suppressedBy ? (
            <>
              <dt>{maintenanceWords(t).suppressedBy}</dt>
              <dd data-testid="suppressed-by">
                <a href={`${base}/maintenance`}>
                  <code safe>{a.suppressedBy}</code>
                </a>{' '}
                {fill(maintenanceWords(t).until, { t: fmt.dateTime(a.suppressedUntil) })}
              </dd>
            </>
          ) : (
            ''
          )}
        </dl>
        <AlertButtons t={t} csrf={p.csrf} accountId={p.account.id} alert={a} back="detail" />
      </section>
      <h2>{t.alertCalls}</h2>
      {p.calls.length === 0 ? (
        <p>{t.noAlertCalls}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="alert-calls-table">
            <thead>
              <tr>
                <th scope="col">{t.number}</th>
                <th scope="col">{t.state}</th>
                <th scope="col" class="num">{t.attempts}</th>
                <th scope="col">{t.reason}</th>
                <th scope="col">{t.bundledInto}</th>
                <th scope="col">{t.updated}</th>
              </tr>
            </thead>
            <tbody>
              {p.calls.map((c) => (
                <tr data-call-id={c.id}>
                  <td data-label={t.number}>
                    <a href={`${base}/calls/${c.id}`}>
                      <code safe>{c.phoneNumber}</code>
                    </a>
                  </td>
                  <td data-label={t.state}>
                    <StateBadge t={t} state={c.state} />
                  </td>
                  <td data-label={t.attempts} class="num">{String(c.attempts)}</td>
                  <td data-label={t.reason} safe>
                    {c.lastReason ?? '—'}
                  </td>
                  <td data-label={t.bundledInto}>{c.bundledInto ? <a href={`${base}/calls/${c.bundledInto}`} data-testid="bundled-into" safe>{c.bundledInto}</a> : '—'}</td>
                  <td data-label={t.updated}>{fmt.dateTime(c.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <a href={`${base}/alerts`}>{`← ${t.alertsTitle}`}</a>
      </p>
    </Layout>
  );
}
