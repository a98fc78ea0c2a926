import { Elysia } from 'elysia';
import type { PersonInUse, PersonResult } from '../../../people';
import type { Person, UsedBy } from '../../../store';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { inUseWords } from '../i18n/in-use-words';
import { peopleWords } from '../i18n/people-words';
import { confirmed } from '../views/confirm-page';
import { deletePage } from '../views/delete-page';
import { PeoplePage, type PeoplePageProps, type PersonDraft } from '../views/people-page';

/** Lines of a textarea, trimmed, the empty ones dropped. */
const lines = (v: string | undefined) =>
  (v ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The form as the service's input (the API's JSON fields): every field, so a save replaces them all. */
const inputOf = (f: Record<string, string | undefined>) => ({
  name: f.name ?? '',
  phones: lines(f.phones),
  sms: lines(f.sms),
  emails: lines(f.emails),
  language: f.language ?? '',
  time_zone: f.time_zone?.trim() || null,
});

/** An account's people (docs/on-call.md "People"): read → service (src/people) → render. */
export function peopleRoutes(env: PanelEnv) {
  const { people } = env.services;
  const path = '/panel/a/:accountId/people';
  const render = async (c: PanelCtx, status: number, extra: Partial<PeoplePageProps> = {}) =>
    htmlResponse(
      PeoplePage({
        t: c.t,
        fmt: c.fmt,
        user: c.user,
        csrf: c.csrf,
        account: c.account,
        people: await people.list(c.account.id),
        defaultLanguage: env.deps.config.panel.language,
        ...extra,
      }),
      status,
    );
  const problem = (c: PanelCtx, r: Exclude<PersonResult, { ok: true }> | PersonInUse) => {
    const w = peopleWords(c.t);
    if (r.code === 'invalid_person') return `${w.invalid} ${r.problem}`;
    if (r.code === 'invalid_phone_number') return `${w.errors.invalid_phone_number} ${r.value}`;
    return r.code === 'person_name_taken' || r.code === 'person_not_found' ? w.errors[r.code] : c.t.notFound;
  };
  const draft = (c: PanelCtx, id?: string): PersonDraft & { id?: string } => ({
    id,
    name: c.form.name ?? '',
    phones: c.form.phones ?? '',
    sms: c.form.sms ?? '',
    emails: c.form.emails ?? '',
    language: c.form.language ?? '',
    timeZone: c.form.time_zone ?? '',
  });
  const askDelete = (c: PanelCtx, person: Person, usedBy: UsedBy[], status: number) =>
    deletePage({
      t: c.t,
      user: c.user,
      csrf: c.csrf,
      title: fill(inUseWords(c.t).deletePerson, { name: person.name }),
      lines: [person.name, ...person.phones.map((ph, i) => `${i + 1}. ${ph.number}`)],
      usedBy,
      action: `/panel/a/${c.account.id}/people/${encodeURIComponent(person.id)}/delete`,
      cancelHref: `/panel/a/${c.account.id}/people`,
      status,
    });
  const done = (c: PanelCtx) => redirect(`/panel/a/${c.account.id}/people?ok`);

  return new Elysia({ name: 'panel-people' })
    .get(
      path,
      guarded(env, { account: true }, (c) => {
        const w = peopleWords(c.t);
        const verifying = c.query.verifying !== undefined ? fill(w.verifying, { n: String(Number(c.query.verifying) || 0) }) : undefined;
        return render(c, 200, { notice: c.query.ok !== undefined ? w.saved : verifying });
      }),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const r = await people.create(c.account.id, inputOf(c.form));
        return r.ok ? done(c) : render(c, 400, { error: problem(c, r), draft: draft(c) });
      }),
    )
    .post(
      `${path}/:personId`,
      guarded(env, { account: true }, async (c) => {
        const id = c.params.personId ?? '';
        const r = await people.update(c.account.id, id, inputOf(c.form));
        return r.ok ? done(c) : render(c, r.code === 'person_not_found' ? 404 : 400, { error: problem(c, r), draft: draft(c, id) });
      }),
    )
    .post(
      `${path}/:personId/verify`,
      guarded(env, { account: true }, async (c) => {
        // docs/on-call.md "Verification": queued at once; the page shows each phone's last check.
        const r = await people.verify(c.account.id, c.params.personId ?? '');
        if (r.ok) return redirect(`/panel/a/${c.account.id}/people?verifying=${r.calls.length}`);
        return r.code === 'person_not_found' ? render(c, 404, { error: peopleWords(c.t).errors.person_not_found }) : render(c, 400, { error: r.problem });
      }),
    )
    .post(
      `${path}/:personId/delete`,
      guarded(env, { account: true }, async (c) => {
        const id = c.params.personId ?? '';
        // The button asks first: who goes, and what names them (then no delete at all).
        const ask = async (status: number) => {
          const found = await people.usersOf(c.account.id, id);
          return found ? askDelete(c, found.person, found.usedBy, status) : render(c, 404, { error: peopleWords(c.t).errors.person_not_found });
        };
        if (!confirmed(c.form)) return ask(200);
        const r = await people.remove(c.account.id, id);
        if (r.ok) return done(c);
        // Something started naming them since the page asked: shown again, with its users.
        if (r.code === 'person_in_use') return ask(409);
        return render(c, 404, { error: problem(c, r) });
      }),
    );
}
