import type { ScheduleView, Shift } from '../../../schedules';
import type { Account, PanelUser } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { inUseWords } from '../i18n/in-use-words';
import { scheduleWords } from '../i18n/schedule-words';
import { DateTimeField } from './date-time-field';
import { Layout } from './layout';
import { CopyValue, CsrfField, Notice, PostButton } from './parts';

export interface SchedulesPageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  views: ScheduleView[];
  /** Each schedule's calendar feed URL, by schedule id. */
  icsUrls: Record<string, string>;
  /** The override form as typed, shown again with the error. */
  draft?: { scheduleId: string; from: string; to: string; number: string; name: string };
  notice?: string;
  error?: string;
}

/** Times on this page are the schedule's own local times (its layers are written in them). */
export function inZone(locale: string, timeZone: string, ms: number | null): string {
  if (ms === null) return '—';
  return new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false }).format(ms);
}

/** Shifts in the schedule's local time: the schedules page and the edit form's preview. */
export function ShiftsTable({ t, timeZone, shifts }: { t: Messages; timeZone: string; shifts: readonly Shift[] }) {
  const w = scheduleWords(t);
  const at = (ms: number | null) => inZone(t.locale, timeZone, ms);
  return (
    <div class="table-wrap">
      <table class="stack" data-testid="shifts">
        <thead>
          <tr>
            <th scope="col">{w.from}</th>
            <th scope="col">{w.to}</th>
            <th scope="col">{w.who}</th>
            <th scope="col">{w.number}</th>
          </tr>
        </thead>
        <tbody>
          {shifts.map((sh) => (
            <tr data-start={new Date(sh.start).toISOString()}>
              <td data-label={w.from}>{at(sh.start)}</td>
              <td data-label={w.to}>{at(sh.end)}</td>
              <td data-label={w.who} safe>
                {sh.name ?? ''}
              </td>
              <td data-label={w.number} safe>
                {sh.number}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An account's schedules (docs/on-call.md "On-call schedules"): on call now, the next 14 days, the overrides (add, remove), create and edit links. */
export function SchedulesPage(p: SchedulesPageProps) {
  const { t, csrf, account } = p;
  const w = scheduleWords(t);
  const base = `/panel/a/${account.id}/schedules`;
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={csrf} account={account} active="schedules">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{w.intro}</p>
      <p>
        <a class="button" href={`${base}/new`}>
          {w.newTitle}
        </a>
      </p>
      {p.views.length === 0 ? <p>{w.none}</p> : ''}
      {p.views.map(({ schedule: s, now, shifts, overrides }) => {
        const at = (ms: number | null) => inZone(t.locale, s.timeZone, ms);
        const draft = p.draft?.scheduleId === s.id ? p.draft : { from: '', to: '', number: '', name: '' };
        const formId = `override-${s.id}`;
        return (
          <section class="card" aria-labelledby={`schedule-${s.id}`} data-schedule={s.name}>
            <h2 id={`schedule-${s.id}`} safe>
              {s.name}
            </h2>
            <dl class="facts">
              <dt>{w.timeZone}</dt>
              <dd safe>{s.timeZone}</dd>
              <dt>{w.onCallNow}</dt>
              <dd data-testid="oncall-now">
                {now.number ? <span safe>{`${now.name ?? ''} ${now.number}`.trim()}</span> : w.nobody} · {fill(w.until, { t: at(now.until) })}
              </dd>
              {s.handoffCall ? (
                <>
                  <dt>{w.handoffCall}</dt>
                  <dd data-testid="handoff-call">{w.handoffOn}</dd>
                </>
              ) : null}
            </dl>
            <CopyValue t={t} id={`ics-${s.id}`} label={w.calendar} value={p.icsUrls[s.id] ?? ''} />
            <h3>{w.next14}</h3>
            <ShiftsTable t={t} timeZone={s.timeZone} shifts={shifts} />
            <h3>{w.overrides}</h3>
            {overrides.length === 0 ? (
              <p>{w.noOverrides}</p>
            ) : (
              <ul data-testid="overrides">
                {overrides.map((o) => (
                  <li data-override={o.id}>
                    {at(o.startsAt)} – {at(o.endsAt)}: <span safe>{`${o.name ?? ''} ${o.phoneNumber}`.trim()}</span>{' '}
                    <PostButton
                      action={`${base}/${s.id}/overrides/${o.id}/delete`}
                      csrf={csrf}
                      label={w.removeOverride}
                      kind="secondary"
                      ariaLabel={`${w.removeOverride}: ${at(o.startsAt)}`}
                    />
                  </li>
                ))}
              </ul>
            )}
            <details open={p.draft?.scheduleId === s.id}>
              <summary>{w.addOverride}</summary>
              <form method="post" action={`${base}/${s.id}/overrides`}>
                <CsrfField csrf={csrf} />
                <p class="hint" safe>
                  {fill(w.overrideHint, { tz: s.timeZone })}
                </p>
                <DateTimeField t={t} id={`${formId}-from`} name="from" label={w.from} value={draft.from} required />
                <DateTimeField t={t} id={`${formId}-to`} name="to" label={w.to} value={draft.to} required />
                <div class="field">
                  <label for={`${formId}-number`}>{w.number}</label>
                  <input id={`${formId}-number`} name="number" required maxlength="30" value={draft.number} />
                </div>
                <div class="field">
                  <label for={`${formId}-name`}>{w.name}</label>
                  <input id={`${formId}-name`} name="name" maxlength="80" value={draft.name} />
                </div>
                <button type="submit">{w.add}</button>
              </form>
            </details>
            <a class="button secondary" href={`${base}/${s.id}/edit`}>
              {w.edit}
            </a>{' '}
            {/* Asks first, and refuses while a policy names it (delete-page.tsx). */}
            <PostButton action={`${base}/${s.id}/delete`} csrf={csrf} label={inUseWords(t).deleteButton} kind="danger" />
          </section>
        );
      })}
    </Layout>
  );
}
