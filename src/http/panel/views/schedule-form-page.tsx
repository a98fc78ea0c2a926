import type { OnCall, Shift } from '../../../schedules';
import type { Account, PanelUser } from '../../../store';
import { fill, type Messages } from '../i18n';
import { scheduleWords } from '../i18n/schedule-words';
import { layerSlots, type ScheduleDraft } from '../schedule-form';
import { DateTimeField } from './date-time-field';
import { Layout } from './layout';
import { CsrfField, Notice } from './parts';
import { ShiftsTable, inZone } from './schedules-page';

export interface ScheduleFormPageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  account: Account;
  /** Absent: a new schedule. */
  scheduleId?: string;
  draft: ScheduleDraft;
  /** What these layers give (nothing saved yet): the Save button shows only with it. */
  preview?: { now: OnCall; shifts: Shift[] };
  error?: string;
}

/**
 * Creating or editing a schedule (docs/on-call.md "On-call schedules"): Preview shows who is on
 * call over the next 14 days with the layers as typed; Save appears beside it once they preview
 * without error. Editing keeps the schedule's id, calendar feed URL and overrides.
 */
export function ScheduleFormPage(p: ScheduleFormPageProps) {
  const { t, csrf, account, draft } = p;
  const w = scheduleWords(t);
  const base = `/panel/a/${account.id}/schedules`;
  const action = p.scheduleId ? `${base}/${encodeURIComponent(p.scheduleId)}/edit` : `${base}/new`;
  const title = p.scheduleId ? fill(w.editTitle, { name: draft.name }) : w.newTitle;
  const tz = draft.timeZone || 'UTC';
  return (
    <Layout t={t} title={title} user={p.user} csrf={csrf} account={account} active="schedules">
      <Notice kind="error" text={p.error} />
      <form method="post" action={action} class="schedule-form">
        <CsrfField csrf={csrf} />
        <div class="field">
          <label for="s-name">{w.scheduleName}</label>
          <input id="s-name" type="text" name="name" required maxlength="60" value={draft.name} />
        </div>
        <div class="field">
          <label for="s-tz">{w.timeZone}</label>
          <input id="s-tz" type="text" name="time_zone" required maxlength="60" placeholder="Europe/Istanbul" value={draft.timeZone} aria-describedby="s-tz-hint" />
          <p class="hint" id="s-tz-hint">{w.timeZoneHint}</p>
        </div>
        <div class="field">
          <label class="check" for="s-handoff">
            <input id="s-handoff" type="checkbox" name="handoff_call" value="1" checked={draft.handoffCall} aria-describedby="s-handoff-hint" />
            {w.handoffCall}
          </label>
          <p class="hint" id="s-handoff-hint">{w.handoffCallHint}</p>
        </div>
        {layerSlots(draft).map((l, i) => (
          <fieldset class="layer" data-layer={i}>
            <legend>{i < draft.layers.length ? fill(w.layer, { n: i + 1 }) : w.newLayer}</legend>
            <div class="field">
              <label for={`l${i}-participants`}>{w.participants}</label>
              <textarea id={`l${i}-participants`} name={`l${i}_participants`} rows="3" aria-describedby={`l${i}-participants-hint`} safe>
                {l.participants}
              </textarea>
              <p class="hint" id={`l${i}-participants-hint`}>{w.participantsHint}</p>
            </div>
            <div class="field">
              <label for={`l${i}-shift`}>{w.shift}</label>
              <input id={`l${i}-shift`} type="text" name={`l${i}_shift`} maxlength="5" placeholder="7d" value={l.shift} aria-describedby={`l${i}-shift-hint`} />
              <p class="hint" id={`l${i}-shift-hint`}>{w.shiftHint}</p>
            </div>
            <DateTimeField t={t} id={`l${i}-start`} name={`l${i}_start`} label={w.start} value={l.start} />
            <div class="field">
              <label for={`l${i}-restrictions`}>{w.restrictions}</label>
              <textarea id={`l${i}-restrictions`} name={`l${i}_restrictions`} rows="2" aria-describedby={`l${i}-restrictions-hint`} safe>
                {l.restrictions}
              </textarea>
              <p class="hint" id={`l${i}-restrictions-hint`}>{w.restrictionsHint}</p>
            </div>
          </fieldset>
        ))}
        <p class="hint">{w.layersHint}</p>
        <div class="actions">
          <button type="submit" name="do" value="preview" class={p.preview ? 'secondary' : undefined}>
            {w.preview}
          </button>
          {p.preview ? (
            <button type="submit" name="do" value="save">
              {w.save}
            </button>
          ) : (
            ''
          )}
          <a href={base}>{t.cancel}</a>
        </div>
      </form>
      {p.preview ? (
        <section class="card" aria-labelledby="preview-title" data-testid="preview">
          <h2 id="preview-title">{w.previewTitle}</h2>
          <p>
            {w.onCallNow}:{' '}
            {p.preview.now.number ? <span safe>{`${p.preview.now.name ?? ''} ${p.preview.now.number}`.trim()}</span> : w.nobody} ·{' '}
            {fill(w.until, { t: inZone(t.locale, tz, p.preview.now.until) })}
          </p>
          <ShiftsTable t={t} timeZone={tz} shifts={p.preview.shifts} />
        </section>
      ) : (
        ''
      )}
    </Layout>
  );
}
