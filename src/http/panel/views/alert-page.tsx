import type { Account, AlertRecord, AlertText, CallEvent, CallRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { alertDetailWords } from '../i18n/alert-detail-words';
import { answeredByText, answeredByWords } from '../i18n/answered-by-words';
import { maintenanceWords } from '../i18n/maintenance-words';
import { AlertButtons, AlertStateBadge } from './alert-parts';
import { CallEvents } from './call-events';
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
  /** Each call's transitions, by call id (a call missing here shows none). */
  events: Map<string, CallEvent[]>;
  /** The alert's texts and e-mails, oldest first, with the person's name when known. */
  texts: (AlertText & { personName: string | null })[];
  notice?: string | null;
}

/**
 * One alert: its times, who acknowledged it, every call placed (or bundled) for it with its
 * events, who answered each attempt and a player for what it says, and every text and e-mail
 * of the second path (docs/panel.md "An alert's page").
 */
export function AlertPage(p: AlertPageProps) {
  const { t, fmt, alert: a } = p;
  const w = alertDetailWords(t);
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
          {a.shortCode ? (
            <>
              <dt>{w.shortCode}</dt>
              <dd data-testid="short-code">
                <code safe>{a.shortCode}</code>
              </dd>
            </>
          ) : (
            ''
          )}
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
      {p.calls.map((c) => (
        <section class="card" data-call-events={c.id} aria-labelledby={`events-${c.id}`}>
          <h3 id={`events-${c.id}`}>
            {`${w.events} · `}
            <code safe>{c.phoneNumber}</code> <StateBadge t={t} state={c.state} />
          </h3>
          {c.answeredBy ? (
            <p data-answered-by={c.answeredBy} safe>
              {`${answeredByWords(t).answeredBy}: ${answeredByText(t, c.answeredBy, c.amdReason)}`}
            </p>
          ) : (
            ''
          )}
          {(p.events.get(c.id) ?? []).length ? <CallEvents t={t} fmt={fmt} events={p.events.get(c.id) ?? []} /> : <p class="hint">{w.noEvents}</p>}
          <audio controls="" preload="none" src={`${base}/calls/${c.id}/audio.wav`} aria-label={`${t.audio}: ${c.id}`}></audio>
        </section>
      ))}
      <AlertTexts t={t} fmt={fmt} texts={p.texts} />
      <p>
        <a href={`${base}/alerts`}>{`← ${t.alertsTitle}`}</a>
      </p>
    </Layout>
  );
}

/** The second path on the alert: each text and e-mail sent, failed or received, oldest first. */
function AlertTexts({ t, fmt, texts }: { t: Messages; fmt: Formatter; texts: AlertPageProps['texts'] }) {
  const w = alertDetailWords(t);
  return (
    <>
      <h2>{w.texts}</h2>
      {texts.length === 0 ? (
        <p>{w.noTexts}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="alert-texts-table">
            <thead>
              <tr>
                <th scope="col">{w.when}</th>
                <th scope="col">{w.kind}</th>
                <th scope="col">{w.address}</th>
                <th scope="col">{w.person}</th>
                <th scope="col">{w.detail}</th>
              </tr>
            </thead>
            <tbody>
              {texts.map((x) => (
                <tr data-text-type={x.type}>
                  <td data-label={w.when}>{fmt.dateTime(x.at)}</td>
                  <td data-label={w.kind} safe>
                    {w.types[x.type] ?? x.type}
                  </td>
                  <td data-label={w.address}>
                    <code safe>{x.address}</code>
                  </td>
                  <td data-label={w.person} safe>
                    {x.personName ?? x.personId ?? '—'}
                  </td>
                  <td data-label={w.detail} safe>
                    {x.detail ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
