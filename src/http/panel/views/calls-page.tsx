import { CALL_STATES } from '../../../call-model';
import type { Account, CallRecord, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import type { Messages } from '../i18n';
import { answeredByText } from '../i18n/answered-by-words';
import { CallAlertCell } from './call-links';
import { Layout } from './layout';
import { DateRangeAndApply, Notice, Pager, StateBadge } from './parts';

export interface CallsPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  calls: CallRecord[];
  total: number;
  page: number;
  pageSize: number;
  /** The filter as typed (state, number, from, to), kept in the form and the paging links. */
  filter: Record<string, string>;
  /** A filter day that is not one, said above the filters (docs/panel.md "Typing dates"). */
  error?: string | null;
  /** Where the browser fetches what the call plays (rendered on demand, cached by the speech layer). */
  audioUrl?: (call: CallRecord) => string | null;
}

export function CallsPage(p: CallsPageProps) {
  const { t, fmt, filter } = p;
  const path = `/panel/a/${p.account.id}/calls`;
  return (
    <Layout t={t} title={t.callsTitle} user={p.user} csrf={p.csrf} account={p.account} active="calls">
      <Notice kind="error" text={p.error} />
      <form class="filters" method="get" action={path} aria-label={t.filter}>
        <div class="field">
          <label for="f-state">{t.state}</label>
          <select id="f-state" name="state">
            <option value="">{t.allStates}</option>
            {CALL_STATES.map((s) => (
              <option value={s} selected={filter.state === s}>
                {t.states[s] ?? s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-number">{t.number}</label>
          <input id="f-number" name="number" type="tel" inputmode="tel" value={filter.number ?? ''} />
        </div>
        <DateRangeAndApply t={t} from={filter.from} to={filter.to} />
      </form>
      {p.calls.length === 0 ? (
        <p>{t.noCalls}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="calls-table">
            <thead>
              <tr>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.number}</th>
                <th scope="col">{t.state}</th>
                <th scope="col" class="num">{t.attempts}</th>
                <th scope="col" class="num">{t.sipCode}</th>
                <th scope="col" class="wide">{t.updated}</th>
                <th scope="col" class="wide">{t.answered}</th>
                <th scope="col" class="wide">{t.finished}</th>
                <th scope="col" class="wide">{t.acknowledged}</th>
                {/* Below 1600 px the four columns above give way to this one, which keeps what matters
                    at 3 a.m. (issue 49: acknowledged/answered/finished were hidden at 1366 px). */}
                <th scope="col" class="narrow">{t.acknowledged}</th>
                <th scope="col">{t.source}</th>
                <th scope="col">{t.message}</th>
                <th scope="col">{t.alertOfCall}</th>
                <th scope="col">{t.audio}</th>
              </tr>
            </thead>
            <tbody>
              {p.calls.map((c) => {
                const audio = p.audioUrl?.(c) ?? null;
                return (
                  <tr data-call-id={c.id}>
                    <td data-label={t.created}>
                      {/* The call's own page: its events, who answered, its alert (docs/panel.md "An alert's page"). */}
                      <a href={`/panel/a/${p.account.id}/calls/${c.id}`} data-testid="call-page">
                        {fmt.dateTime(c.createdAt)}
                      </a>
                    </td>
                    <td data-label={t.number}>
                      <code safe>{c.phoneNumber}</code>
                    </td>
                    <td data-label={t.state}>
                      <div>
                        <StateBadge t={t} state={c.state} />
                        {c.lastReason ? (
                          <>
                            <br />
                            <small safe>{c.lastReason}</small>
                          </>
                        ) : (
                          ''
                        )}
                      </div>
                    </td>
                    <td data-label={t.attempts} class="num">{String(c.attempts)}</td>
                    <td data-label={t.sipCode} class="num">{c.lastSipCode === null ? '—' : String(c.lastSipCode)}</td>
                    <td data-label={t.updated} class="wide">{fmt.dateTime(c.updatedAt)}</td>
                    <td data-label={t.answered} class="wide">
                      {fmt.dateTime(c.answeredAt ?? null)}
                      {c.answeredBy ? (
                        <>
                          <br />
                          <small class="answered-by" data-answered-by={c.answeredBy} safe>
                            {answeredByText(t, c.answeredBy, c.amdReason)}
                          </small>
                        </>
                      ) : (
                        ''
                      )}
                    </td>
                    <td data-label={t.finished} class="wide">{fmt.dateTime(c.finishedAt ?? null)}</td>
                    <td data-label={t.acknowledged} class="wide">{c.acknowledgedAt === null ? t.no : fmt.dateTime(c.acknowledgedAt)}</td>
                    <td data-label={t.acknowledged} class="narrow" data-testid="call-times">
                      <div>
                        <strong>{c.acknowledgedAt === null ? t.no : fmt.dateTime(c.acknowledgedAt)}</strong>
                        <br />
                        <small>{`${t.answered}: ${fmt.dateTime(c.answeredAt ?? null)}`}</small>
                        <br />
                        <small>{`${t.finished}: ${fmt.dateTime(c.finishedAt ?? null)}`}</small>
                      </div>
                    </td>
                    <td data-label={t.source}>{t.sources[c.source] ?? c.source}</td>
                    <td data-label={t.message} safe>
                      {c.message}
                    </td>
                    <td data-label={t.alertOfCall}>
                      <CallAlertCell t={t} accountId={p.account.id} call={c} />
                    </td>
                    <td data-label={t.audio}>
                      {audio ? <audio controls="" preload="none" src={audio} aria-label={`${t.audio}: ${c.id}`}></audio> : t.audioNone}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager t={t} path={path} query={filter} page={p.page} pageSize={p.pageSize} total={p.total} />
    </Layout>
  );
}
