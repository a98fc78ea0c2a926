import type { AccountCoverage, ScheduleCoverageRead } from '../../../schedules';
import type { Account, PanelUser, PersonPhone } from '../../../store';
import { fill, type Messages } from '../i18n';
import { coverageWords, lengthText } from '../i18n/coverage-words';
import { Layout } from './layout';
import { inZone } from './schedules-page';

export interface CoveragePageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  account: Account;
  days: number;
  maxDays: number;
  coverage: AccountCoverage;
}

/** Each phone with its verification, in the order they are called. */
function Phones({ t, phones }: { t: Messages; phones: readonly PersonPhone[] }) {
  const w = coverageWords(t);
  if (phones.length === 0) return <span class="notice error">{w.noPhone}</span>;
  return (
    <ol>
      {phones.map((ph) => (
        <li data-phone={ph.number} data-verified={ph.verifiedAt === null ? 'no' : 'yes'}>
          <span safe>{ph.number}</span> — {ph.verifiedAt === null ? <strong>{w.notVerified}</strong> : w.verified}
        </li>
      ))}
    </ol>
  );
}

function ScheduleCard({ t, accountId, c }: { t: Messages; accountId: string; c: ScheduleCoverageRead }) {
  const w = coverageWords(t);
  const at = (ms: number) => inZone(t.locale, c.schedule.timeZone, ms);
  return (
    <section class="card" aria-labelledby={`coverage-${c.schedule.id}`} data-schedule={c.schedule.name} id={`schedule-${c.schedule.id}`}>
      <h2 id={`coverage-${c.schedule.id}`} safe>
        {`${c.schedule.name} · ${c.schedule.timeZone}`}
      </h2>
      {c.gaps.length === 0 && c.unverified.length === 0 ? <p data-testid="all-good">{w.allGood}</p> : ''}
      {c.gaps.length > 0 ? (
        <>
          <h3>{w.gaps}</h3>
          <p class="notice error" role="alert" data-gap-seconds={String(Math.round(c.gapMs / 1000))}>
            {fill(w.gapTotal, { n: c.gaps.length, h: lengthText(w, c.gapMs) })}
          </p>
          <div class="table-wrap">
            <table class="stack" data-testid="gaps">
              <thead>
                <tr>
                  <th scope="col">{w.from}</th>
                  <th scope="col">{w.to}</th>
                  <th scope="col">{w.length}</th>
                </tr>
              </thead>
              <tbody>
                {c.gaps.map((g) => (
                  <tr data-gap={new Date(g.start).toISOString()}>
                    <td data-label={w.from}>{at(g.start)}</td>
                    <td data-label={w.to}>{at(g.end)}</td>
                    <td data-label={w.length}>{lengthText(w, g.end - g.start)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        ''
      )}
      {c.unverified.length > 0 ? (
        <>
          <h3>{w.unverified}</h3>
          <ul data-testid="unverified">
            {c.unverified.map((u) => (
              <li data-unverified={u.name}>
                <a href={`/panel/a/${accountId}/people`} safe>
                  {u.name}
                </a>{' '}
                · {fill(w.unverifiedFrom, { t: at(u.from) })}
                <Phones t={t} phones={u.phones} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        ''
      )}
      <h3>{w.shifts}</h3>
      <div class="table-wrap">
        <table class="stack" data-testid="coverage-shifts">
          <thead>
            <tr>
              <th scope="col">{w.from}</th>
              <th scope="col">{w.to}</th>
              <th scope="col">{w.who}</th>
              <th scope="col">{w.phones}</th>
            </tr>
          </thead>
          <tbody>
            {c.shifts.map((s) => (
              <tr data-start={new Date(s.start).toISOString()}>
                <td data-label={w.from}>{at(s.start)}</td>
                <td data-label={w.to}>{at(s.end)}</td>
                <td data-label={w.who} safe>
                  {s.name ?? ''}
                </td>
                <td data-label={w.phones}>
                  {s.person === null ? (
                    <>
                      <span safe>{s.number ?? ''}</span> — {w.bareNumber}
                    </>
                  ) : (
                    <Phones t={t} phones={s.phones} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** An account's coverage (docs/on-call.md "Coverage"): what `voice-alert coverage` prints, per schedule. */
export function CoveragePage(p: CoveragePageProps) {
  const { t, account } = p;
  const w = coverageWords(t);
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={p.csrf} account={account} active="coverage">
      <p>{fill(w.intro, { days: p.days })}</p>
      <form method="get" action={`/panel/a/${account.id}/coverage`} class="inline">
        <label for="coverage-days">{w.days}</label> <input id="coverage-days" name="days" type="number" min="1" max={String(p.maxDays)} value={String(p.days)} />{' '}
        <button type="submit">{w.show}</button>
      </form>
      {p.coverage.schedules.length === 0 ? <p>{w.none}</p> : ''}
      {p.coverage.schedules.map((c) => (
        <ScheduleCard t={t} accountId={account.id} c={c} />
      ))}
    </Layout>
  );
}
