import type { Account, PanelUser, Person } from '../../../store';
import type { Formatter } from '../format';
import { fill, type Messages } from '../i18n';
import { peopleWords } from '../i18n/people-words';
import { Layout } from './layout';
import { CsrfField, Notice, PostButton } from './parts';

/** The form's fields as typed (lists one entry a line). */
export interface PersonDraft {
  name: string;
  phones: string;
  sms: string;
  emails: string;
  language: string;
  timeZone: string;
}

export interface PeoplePageProps {
  t: Messages;
  fmt: Formatter;
  user: PanelUser;
  csrf: string;
  account: Account;
  people: Person[];
  /** The form as typed, shown again with the error (edit: the person's id). */
  draft?: PersonDraft & { id?: string };
  notice?: string;
  error?: string;
  /** panel.language: a new person's call language unless chosen. */
  defaultLanguage: 'tr' | 'en';
}

/** A person's fields as the form shows them. */
export const draftOf = (p: Person): PersonDraft => ({
  name: p.name,
  phones: p.phones.map((ph) => ph.number).join('\n'),
  sms: p.sms.join('\n'),
  emails: p.emails.join('\n'),
  language: p.language,
  timeZone: p.timeZone ?? '',
});

function PersonForm({ t, csrf, action, values, submit }: { t: Messages; csrf: string; action: string; values: PersonDraft; submit: string }) {
  const w = peopleWords(t);
  const id = action.replace(/\W+/g, '-');
  return (
    <form method="post" action={action}>
      <CsrfField csrf={csrf} />
      <div class="field">
        <label for={`${id}-name`}>{w.name}</label>
        <input id={`${id}-name`} name="name" required maxlength="60" value={values.name} />
      </div>
      <div class="field">
        <label for={`${id}-phones`}>{w.phones}</label>
        <textarea id={`${id}-phones`} name="phones" rows="3" safe>
          {values.phones}
        </textarea>
      </div>
      <div class="field">
        <label for={`${id}-sms`}>{w.sms}</label>
        <textarea id={`${id}-sms`} name="sms" rows="2" safe>
          {values.sms}
        </textarea>
      </div>
      <div class="field">
        <label for={`${id}-emails`}>{w.emails}</label>
        <textarea id={`${id}-emails`} name="emails" rows="2" safe>
          {values.emails}
        </textarea>
      </div>
      <div class="field">
        <label for={`${id}-language`}>{w.language}</label>
        <select id={`${id}-language`} name="language">
          {(['tr', 'en'] as const).map((l) => (
            <option value={l} selected={values.language === l}>
              {w.languages[l]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-tz`}>{w.timeZone}</label>
        <input id={`${id}-tz`} name="time_zone" maxlength="64" value={values.timeZone} />
      </div>
      <button type="submit">{submit}</button>
    </form>
  );
}

/** An account's people (docs/on-call.md "People"): list, add, edit, delete (asked first, refused while used). */
export function PeoplePage(p: PeoplePageProps) {
  const { t, csrf, account, fmt } = p;
  const w = peopleWords(t);
  const base = `/panel/a/${account.id}/people`;
  const draftFor = (id?: string) => (p.draft && p.draft.id === id ? p.draft : undefined);
  return (
    <Layout t={t} title={w.title} user={p.user} csrf={csrf} account={account} active="people">
      <Notice text={p.notice} />
      <Notice kind="error" text={p.error} />
      <p>{w.intro}</p>
      {p.people.length === 0 ? <p>{w.none}</p> : ''}
      {p.people.map((person) => (
        <section class="card" aria-labelledby={`person-${person.id}`} data-person={person.name}>
          <h2 id={`person-${person.id}`} safe>
            {person.name}
          </h2>
          <p>
            {w.languages[person.language]}
            {person.timeZone ? <span safe>{` · ${person.timeZone}`}</span> : ''}
          </p>
          {person.phones.length === 0 ? (
            <p class="notice error">{w.noPhone}</p>
          ) : (
            <ol>
              {person.phones.map((ph) => (
                <li data-phone={ph.number}>
                  <span safe>{ph.number}</span> — {ph.verifiedAt ? fill(w.verified, { t: fmt.dateTime(ph.verifiedAt) }) : w.notVerified}
                  {ph.lastCheck ? (
                    <span class={ph.lastCheck.ok ? '' : 'error'} data-last-check={ph.lastCheck.ok ? 'ok' : (ph.lastCheck.reason ?? '')} safe>
                      {` · ${ph.lastCheck.ok ? fill(w.lastCheckOk, { t: fmt.dateTime(ph.lastCheck.at) }) : fill(w.lastCheckFailed, { t: fmt.dateTime(ph.lastCheck.at), reason: w.reasons[ph.lastCheck.reason ?? ''] ?? ph.lastCheck.reason ?? '' })}`}
                    </span>
                  ) : (
                    ''
                  )}
                </li>
              ))}
            </ol>
          )}
          {person.sms.length || person.emails.length ? <p safe>{[...person.sms.map((n) => `SMS ${n}`), ...person.emails].join(' · ')}</p> : ''}
          {person.phones.length > 0 ? (
            <PostButton action={`${base}/${person.id}/verify`} csrf={csrf} label={w.verify} title={w.verifyHint} />
          ) : (
            ''
          )}
          <details>
            <summary>{w.edit}</summary>
            <PersonForm t={t} csrf={csrf} action={`${base}/${person.id}`} values={draftFor(person.id) ?? draftOf(person)} submit={w.save} />
          </details>
          <PostButton action={`${base}/${person.id}/delete`} csrf={csrf} label={w.delete} kind="danger" />
        </section>
      ))}
      <section class="card" aria-labelledby="new-person">
        <h2 id="new-person">{w.add}</h2>
        <PersonForm t={t} csrf={csrf} action={base} values={draftFor(undefined) ?? { name: '', phones: '', sms: '', emails: '', language: p.defaultLanguage, timeZone: '' }} submit={t.create} />
      </section>
    </Layout>
  );
}
