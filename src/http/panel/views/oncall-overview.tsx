import type { AlertRecord } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { coverageWords, lengthText } from '../i18n/coverage-words';
import { scheduleWords } from '../i18n/schedule-words';
import { unroutableWords } from '../i18n/unroutable-words';
import { AlertStateBadge } from './alert-parts';
import { inZone } from './schedules-page';

/** Who is on call in each schedule, and the alerts nobody has taken yet: what the overview is opened for at 3 a.m. */
export interface OncallOverviewData {
  oncall: { accountId: string; schedule: string; timeZone: string; name: string | null; number: string | null; until: number | null }[];
  /** Open and unacknowledged alerts, newest first. */
  openAlerts: AlertRecord[];
  /** The administrator's view of every account: each account's name by id, shown in an account column. */
  accountNames?: Record<string, string>;
  /** Schedules with a gap or someone on call with no verified phone in the next 14 days (docs/on-call.md "Coverage"). */
  coverage?: { accountId: string; schedule: string; gapSeconds: number; unverifiedPeople: number }[];
}

/** What is wrong with coverage, each schedule linked to its account's coverage page; nothing when all is well. */
function CoverageWarnings({ t, data }: { t: Messages; data: OncallOverviewData }) {
  const w = coverageWords(t);
  if (!data.coverage?.length) return '';
  return (
    <section class="card" aria-labelledby="ov-coverage" data-testid="coverage-warnings">
      <h2 id="ov-coverage">{w.overviewTitle}</h2>
      <ul>
        {data.coverage.map((c) => (
          <li class="notice error" data-coverage={c.schedule}>
            <a href={`/panel/a/${c.accountId}/coverage`} safe>
              {data.accountNames ? `${data.accountNames[c.accountId] ?? c.accountId} · ${c.schedule}` : c.schedule}
            </a>
            {': '}
            {[c.gapSeconds > 0 ? fill(w.overviewGap, { h: lengthText(w, c.gapSeconds * 1000) }) : null, c.unverifiedPeople > 0 ? fill(w.overviewUnverified, { n: c.unverifiedPeople }) : null].filter(Boolean).join(' · ')}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The account column of the administrator's every-account lists: its name, linked to its pages. */
export function AccountCell({ t, accountId, names }: { t: Messages; accountId: string; names: Record<string, string> }) {
  return (
    <td data-label={t.accountNav}>
      <a href={`/panel/a/${accountId}/alerts`} data-account={accountId} safe>
        {names[accountId] ?? accountId}
      </a>
    </td>
  );
}

export function OncallOverview({ t, fmt, data }: { t: Messages; fmt: Formatter; data: OncallOverviewData }) {
  const w = scheduleWords(t);
  return (
    <>
      <CoverageWarnings t={t} data={data} />
      {data.oncall.length ? (
        <section class="card" aria-labelledby="ov-oncall">
          <h2 id="ov-oncall">{w.oncallTitle}</h2>
          <dl class="facts" data-testid="oncall">
            {data.oncall.map((o) => (
              <>
                <dt>
                  <a href={`/panel/a/${o.accountId}/schedules`} safe>
                    {o.schedule}
                  </a>
                </dt>
                <dd data-schedule={o.schedule}>
                  {o.number ? <strong safe>{`${o.name ?? ''} ${o.number}`.trim()}</strong> : w.nobody} · {fill(w.until, { t: inZone(t.locale, o.timeZone, o.until) })}
                </dd>
              </>
            ))}
          </dl>
        </section>
      ) : (
        ''
      )}
      <h2 id="ov-open-alerts">{w.openAlertsTitle}</h2>
      {data.openAlerts.length === 0 ? (
        <p>{w.noOpenAlerts}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="open-alerts-table" aria-labelledby="ov-open-alerts">
            <thead>
              <tr>
                <th scope="col">{w.created}</th>
                {data.accountNames ? <th scope="col">{t.accountNav}</th> : ''}
                <th scope="col">{w.alert}</th>
                <th scope="col">{t.state}</th>
              </tr>
            </thead>
            <tbody>
              {data.openAlerts.map((a) => (
                <tr data-alert={a.id}>
                  <td data-label={w.created}>
                    <a href={`/panel/a/${a.accountId}/alerts/${a.id}`}>{fmt.dateTime(a.createdAt)}</a>
                  </td>
                  {data.accountNames ? <AccountCell t={t} accountId={a.accountId} names={data.accountNames} /> : ''}
                  <td data-label={w.alert}>
                    <span safe>{a.message}</span>
                    {a.unroutable ? (
                      // Contract "Nothing silently calls nobody": who could not be reached, in red.
                      <p class="notice error" role="alert" data-unroutable safe>
                        {fill(unroutableWords(t).nobodyToCall, { why: a.unroutable })}
                      </p>
                    ) : (
                      ''
                    )}
                  </td>
                  <td data-label={t.state}>
                    <AlertStateBadge t={t} state={a.state} />
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
