import { Elysia } from 'elysia';
import { describeParticipant, icsPath, localToIso, type OnCall, type OverrideResult, type ScheduleInUse, type Shift, type ScheduleResult } from '../../../schedules';
import { describeUsers } from '../../../store';
import type { PanelCtx, PanelEnv } from '../env';
import { baseUrlFor } from '../examples';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { inUseWords } from '../i18n/in-use-words';
import { scheduleWords } from '../i18n/schedule-words';
import { confirmed } from '../views/confirm-page';
import { deletePage } from '../views/delete-page';
import { SchedulesPage, type SchedulesPageProps } from '../views/schedules-page';
import { draftFromForm, draftFromSchedule, inputFromDraft, type ScheduleDraft } from '../schedule-form';
import { showLocalDateTime } from '../date-input';
import { readTypedDateTime } from '../typed-dates';
import { ScheduleFormPage } from '../views/schedule-form-page';

/** How far ahead the page lists shifts (docs/on-call.md "On-call schedules"). */
const PANEL_DAYS = 14;

/** An account's on-call schedules: read → service (src/schedules) → render; an owner adds overrides. */
export function schedulesRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const { schedules } = env.deps.services;
  const path = '/panel/a/:accountId/schedules';
  const render = async (c: PanelCtx, status: number, extra: Partial<SchedulesPageProps> = {}) => {
    const views = await schedules.views(c.account.id, PANEL_DAYS);
    const base = baseUrlFor(c.request, config.panel.public_url, config.http.trust_proxy);
    const icsUrls = Object.fromEntries(views.map((v) => [v.schedule.id, base + icsPath(v.schedule.icsToken)]));
    return htmlResponse(SchedulesPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, views, icsUrls, ...extra }), status);
  };
  const problem = (c: PanelCtx, r: Exclude<OverrideResult, { ok: true }>) => {
    const w = scheduleWords(c.t);
    return 'problem' in r ? `${w.invalid} ${r.problem}` : w.notFound;
  };

  // docs/on-call.md "Nothing silently calls nobody": the delete button asks first, showing the layers
  // and, while a policy names the schedule, the policies and no delete.
  const askDelete = async (c: PanelCtx, status: number) => {
    const found = await schedules.usersOf(c.account.id, c.params.scheduleId ?? '');
    if (!found) return render(c, 404, { error: scheduleWords(c.t).notFound });
    const s = found.schedule;
    const people = new Map((await env.services.people.list(c.account.id)).map((p) => [p.id, p]));
    return deletePage({
      t: c.t,
      user: c.user,
      csrf: c.csrf,
      title: fill(inUseWords(c.t).deleteSchedule, { name: s.name }),
      lines: [
        ...s.layers.map((l, i) => `${i + 1}. ${l.participants.map((p) => describeParticipant(p, people)).join(', ')} — ${l.shift}, ${l.start} (${s.timeZone})`),
        scheduleWords(c.t).overrides,
      ],
      usedBy: found.usedBy,
      action: `/panel/a/${c.account.id}/schedules/${encodeURIComponent(s.id)}/delete`,
      cancelHref: `/panel/a/${c.account.id}/schedules`,
      status,
    });
  };

  // Create and edit (docs/on-call.md "On-call schedules"): Preview renders what the layers give,
  // nothing saved; Save saves. Every answer but a saved one shows the form as typed again.
  const form = (c: PanelCtx, status: number, draft: ScheduleDraft, extra: { scheduleId?: string; error?: string; preview?: { now: OnCall; shifts: Shift[] } } = {}) =>
    htmlResponse(ScheduleFormPage({ t: c.t, user: c.user, csrf: c.csrf, account: c.account, draft, ...extra }), status);
  const refused = (c: PanelCtx, r: Exclude<ScheduleResult, { ok: true }> | ScheduleInUse): string => {
    const w = scheduleWords(c.t);
    if ('problem' in r) return `${w.invalidSchedule} ${r.problem}`;
    if (r.code === 'schedule_name_taken') return w.nameTaken;
    if (r.code === 'schedule_in_use') return fill(w.renameInUse, { users: describeUsers(r.usedBy) });
    return w.notFound;
  };
  const submit = async (c: PanelCtx, scheduleId?: string) => {
    const draft = draftFromForm(c.form);
    const ids = scheduleId ? { scheduleId } : {};
    // Each layer's start typed as the panel shows dates or in ISO (docs/panel.md "Typing dates"),
    // handed on in ISO; the form is shown again as typed. An empty start is the service's to refuse.
    const w = scheduleWords(c.t);
    const starts = draft.layers.map((l, i) => (l.start.trim() ? readTypedDateTime(c.t, `${fill(w.layer, { n: i + 1 })}, ${w.start}`, l.start) : null));
    const badStarts = starts.flatMap((x) => (x && !x.ok ? [x.problem] : []));
    if (badStarts.length) return form(c, 400, draft, { ...ids, error: badStarts.join(' ') });
    const parsed = inputFromDraft({ ...draft, layers: draft.layers.map((l, i) => ({ ...l, start: starts[i]?.ok && 'local' in starts[i] ? starts[i].local : l.start })) });
    if (!parsed.ok) return form(c, 400, draft, { ...ids, error: `${scheduleWords(c.t).invalidSchedule} ${parsed.problem}` });
    const { input } = parsed;
    if (c.form.do === 'save') {
      const r = scheduleId ? await schedules.update(c.account.id, scheduleId, input) : await schedules.create(c.account.id, input);
      if (r.ok) return redirect(`/panel/a/${c.account.id}/schedules?saved#schedule-${r.schedule.id}`);
      const status = r.code === 'schedule_not_found' ? 404 : r.code === 'schedule_in_use' || r.code === 'schedule_name_taken' ? 409 : 400;
      return form(c, status, draft, { ...ids, error: refused(c, r) });
    }
    const p = await schedules.preview(c.account.id, input, PANEL_DAYS, scheduleId);
    if (!p.ok) return form(c, p.code === 'schedule_not_found' ? 404 : 400, draft, { ...ids, error: refused(c, p) });
    return form(c, 200, draft, { ...ids, preview: { now: p.now, shifts: p.shifts } });
  };
  const editing = (c: PanelCtx) => schedules.find(c.account.id, c.params.scheduleId ?? '');

  return new Elysia({ name: 'panel-schedules' })
    .get(`${path}/new`, guarded(env, { account: true }, (c) => form(c, 200, { name: '', timeZone: config.credit.timezone, layers: [], handoffCall: false })))
    .post(`${path}/new`, guarded(env, { account: true }, (c) => submit(c)))
    .get(
      `${path}/:scheduleId/edit`,
      guarded(env, { account: true }, async (c) => {
        const s = await editing(c);
        if (!s) return render(c, 404, { error: scheduleWords(c.t).notFound });
        const draft = draftFromSchedule(s, new Map((await env.services.people.list(c.account.id)).map((p) => [p.id, p])));
        // Each start as the panel writes dates (25.11.2026 09:00): what is shown is what is typed.
        return form(c, 200, { ...draft, layers: draft.layers.map((l) => ({ ...l, start: showLocalDateTime(l.start, c.t.locale) })) }, { scheduleId: s.id });
      }),
    )
    .post(
      `${path}/:scheduleId/edit`,
      guarded(env, { account: true }, async (c) => {
        const s = await editing(c);
        return s ? submit(c, s.id) : render(c, 404, { error: scheduleWords(c.t).notFound });
      }),
    )
    .post(
      `${path}/:scheduleId/overrides/:overrideId/delete`,
      guarded(env, { account: true }, async (c) => {
        const r = await schedules.removeOverride(c.account.id, c.params.scheduleId ?? '', c.params.overrideId ?? '');
        if (r.ok) return redirect(`/panel/a/${c.account.id}/schedules?removed`);
        const w = scheduleWords(c.t);
        return render(c, 404, { error: r.code === 'override_not_found' ? w.overrideNotFound : w.notFound });
      }),
    )
    .post(
      `${path}/:scheduleId/delete`,
      guarded(env, { account: true }, async (c) => {
        if (!confirmed(c.form)) return askDelete(c, 200);
        const r = await schedules.remove(c.account.id, c.params.scheduleId ?? '');
        if (r.ok) return redirect(`/panel/a/${c.account.id}/schedules`);
        // A policy started naming it since the page asked: shown again, with its users.
        return r.code === 'schedule_in_use' ? askDelete(c, 409) : render(c, 404, { error: scheduleWords(c.t).notFound });
      }),
    )
    .get(
      path,
      guarded(env, { account: true }, (c) => {
        const w = scheduleWords(c.t);
        const notice = c.query.ok !== undefined ? w.added : c.query.saved !== undefined ? w.saved : c.query.removed !== undefined ? w.overrideRemoved : undefined;
        return render(c, 200, { notice });
      }),
    )
    .post(
      `${path}/:scheduleId/overrides`,
      guarded(env, { account: true }, async (c) => {
        const scheduleId = c.params.scheduleId ?? '';
        const draft = { scheduleId, from: c.form.from ?? '', to: c.form.to ?? '', number: c.form.number ?? '', name: c.form.name ?? '' };
        const views = await schedules.views(c.account.id, 0);
        const s = views.find((v) => v.schedule.id === scheduleId)?.schedule;
        if (!s) return render(c, 404, { error: scheduleWords(c.t).notFound });
        // The form's times are local to the schedule's zone (its layers are written in them),
        // typed as the panel shows them or in ISO (docs/panel.md "Typing dates").
        const w = scheduleWords(c.t);
        const typed = [readTypedDateTime(c.t, w.from, draft.from), readTypedDateTime(c.t, w.to, draft.to)] as const;
        const problems = typed.flatMap((x) => (x.ok ? [] : [x.problem]));
        if (problems.length) return render(c, 400, { error: problems.join(' '), draft });
        const [from, to] = typed.map((x) => (!x.ok ? '' : 'local' in x ? (localToIso(x.local, s.timeZone) ?? x.local) : x.instant)) as [string, string];
        const r = await schedules.addOverride(c.account.id, s.id, { from, to, number: draft.number, name: draft.name || null });
        return r.ok ? redirect(`/panel/a/${c.account.id}/schedules?ok`) : render(c, r.code === 'schedule_not_found' ? 404 : 400, { error: problem(c, r), draft });
      }),
    );
}
