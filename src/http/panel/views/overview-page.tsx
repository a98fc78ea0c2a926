import { FINAL_STATES } from '../../../call-model';
import type { Account, PanelUser, RecentFailure } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { overviewWords } from '../i18n/overview-words';
import { Layout } from './layout';
import { StateBadge } from './parts';
import { AccountCell, OncallOverview, type OncallOverviewData } from './oncall-overview';
import { SelfTestOverview, type SelfTestOverviewData } from './self-test-overview';

/** What an operator reads at 3 a.m.; for an owner, scoped to the own account. */
export interface OverviewData {
  /** null: telephony does not run in this process (the panel alone, as in tests). */
  trunk: { state: string; registered: boolean | null; lastError: string | null; trunks?: { name: string; server: string; state: string; lastProbeResult: string | null }[] } | null;
  lastSip: { at: number; sipCode: number; reason: string | null } | null;
  inProgress: number;
  queued: number;
  oldestQueuedS: number | null;
  openAlerts: number;
  unacknowledged: number;
  /** Calls created today (credit.timezone) that have ended, by final state. */
  today: Record<string, number>;
  failures: RecentFailure[];
  /** The administrator's every-account view: account names by id, for the failures' account column. */
  accountNames?: Record<string, string>;
  /** Owners only. */
  credit: { left: number; total: number } | null;
  /** Who is on call in each schedule, and the open alerts (docs/on-call.md "On-call schedules"). */
  oncall?: OncallOverviewData;
  /** Each trunk's newest voice-path self-test (docs/telephony.md "Voice-path self-test"). */
  selfTests?: SelfTestOverviewData[];
}

export interface OverviewProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  /** The owner's account (its menu shows); undefined for an administrator. */
  account?: Account;
  data: OverviewData;
}

function Stat({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={id} safe>
        {value}
      </dd>
    </div>
  );
}

/** The part htmx swaps every 5 s (like the test-call status): the same markup as the first render. */
export function OverviewLive({ t, fmt, user, data }: Omit<OverviewProps, 'csrf' | 'account'>) {
  const w = overviewWords(t);
  const trunkState = data.trunk ? data.trunk.state : 'unknown';
  const trunkKind = trunkState === 'up' ? 'ok' : trunkState === 'not_configured' || trunkState === 'unknown' ? 'done' : 'bad';
  const endedToday = FINAL_STATES.filter((s) => (data.today[s] ?? 0) > 0);
  const callLink = (f: RecentFailure) => `/panel/a/${f.accountId}/calls/${f.id}`;
  return (
    <div id="overview-live" hx-get="/panel/overview/live" hx-trigger="every 5s" hx-swap="outerHTML">
      <section class="card" aria-labelledby="ov-trunk">
        <h2 id="ov-trunk">{w.trunk}</h2>
        <dl class="facts">
          <dt>{w.now}</dt>
          <dd>
            <span class={`badge ${trunkKind}`} data-testid="trunk-state" data-state={trunkState} safe>
              {w.trunkStates[trunkState] ?? trunkState}
            </span>
          </dd>
          {(data.trunk?.trunks ?? []).map((t) => (
            <>
              <dt safe>{t.name}</dt>
              <dd>
                <span class={`badge ${t.state === 'up' ? 'ok' : t.state === 'down' ? 'bad' : 'done'}`} data-testid={`trunk-state-${t.name}`} data-state={t.state} safe>
                  {w.eachTrunkStates[t.state] ?? t.state}
                </span>
                {user.role === 'admin' ? <span safe>{` ${t.server}${t.lastProbeResult ? ` · ${t.lastProbeResult}` : ''}`}</span> : ''}
              </dd>
            </>
          ))}
          {data.trunk && data.trunk.registered !== null ? (
            <>
              <dt>{w.registered}</dt>
              <dd>{data.trunk.registered ? w.yes : w.no}</dd>
            </>
          ) : (
            ''
          )}
          {user.role === 'admin' && data.trunk?.lastError ? (
            <>
              <dt>{w.lastError}</dt>
              <dd safe>{data.trunk.lastError}</dd>
            </>
          ) : (
            ''
          )}
          <dt>{w.lastAnswer}</dt>
          <dd data-testid="last-sip">
            {data.lastSip ? (
              <>
                <span safe>{`${data.lastSip.sipCode} ${data.lastSip.reason ?? ''}`.trim()}</span> · {fmt.dateTime(data.lastSip.at)}
              </>
            ) : (
              w.none
            )}
          </dd>
        </dl>
      </section>
      <SelfTestOverview t={t} fmt={fmt} data={data.selfTests ?? []} />
      <dl class="stats">
        <Stat id="in-progress" label={w.inProgress} value={String(data.inProgress)} />
        <Stat id="queued" label={w.queued} value={String(data.queued)} />
        <Stat id="oldest-queued" label={w.oldestQueued} value={data.oldestQueuedS === null ? '–' : fill(w.seconds, { n: data.oldestQueuedS })} />
        <Stat id="open-alerts" label={w.openAlerts} value={String(data.openAlerts)} />
        <Stat id="unacknowledged" label={w.unacknowledged} value={String(data.unacknowledged)} />
        {data.credit ? <Stat id="credit-left" label={w.credit} value={fill(w.creditOf, { left: data.credit.left, total: data.credit.total })} /> : ''}
      </dl>
      {data.oncall ? <OncallOverview t={t} fmt={fmt} data={data.oncall} /> : ''}
      <h2 id="ov-today">{w.today}</h2>
      {endedToday.length === 0 ? (
        <p>{w.noCallsToday}</p>
      ) : (
        <dl class="stats" aria-labelledby="ov-today" data-testid="today">
          {endedToday.map((s) => (
            <div>
              <dt>
                <StateBadge t={t} state={s} />
              </dt>
              <dd data-state={s}>{String(data.today[s])}</dd>
            </div>
          ))}
        </dl>
      )}
      <h2 id="ov-failures">{w.failures}</h2>
      {data.failures.length === 0 ? (
        <p>{w.noFailures}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" id="failures-table" aria-labelledby="ov-failures">
            <thead>
              <tr>
                <th scope="col">{t.updated}</th>
                {data.accountNames ? <th scope="col">{t.accountNav}</th> : ''}
                <th scope="col">{t.number}</th>
                <th scope="col">{t.state}</th>
                <th scope="col" class="num">
                  {t.sipCode}
                </th>
                <th scope="col">{t.reason}</th>
              </tr>
            </thead>
            <tbody>
              {data.failures.map((f) => (
                <tr>
                  <td data-label={t.updated}>
                    <a href={callLink(f)}>{fmt.dateTime(f.at)}</a>
                  </td>
                  {data.accountNames ? <AccountCell t={t} accountId={f.accountId} names={data.accountNames} /> : ''}
                  <td data-label={t.number} safe>
                    {f.phoneNumber}
                  </td>
                  <td data-label={t.state}>
                    <StateBadge t={t} state={f.state} />
                  </td>
                  <td data-label={t.sipCode} class="num">
                    {f.sipCode === null ? '–' : String(f.sipCode)}
                  </td>
                  <td data-label={t.reason} safe>
                    {f.reason ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

export function OverviewPage(p: OverviewProps) {
  const w = overviewWords(p.t);
  return (
    <Layout t={p.t} title={w.title} user={p.user} csrf={p.csrf} account={p.account} active="overview">
      <p class="hint">{w.refreshed}</p>
      <OverviewLive t={p.t} fmt={p.fmt} user={p.user} data={p.data} />
    </Layout>
  );
}
