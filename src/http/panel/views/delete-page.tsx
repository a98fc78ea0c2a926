import type { PanelUser, UsedBy } from '../../../store';
import { htmlResponse } from '../html';
import type { Messages } from '../i18n';
import { inUseWords } from '../i18n/in-use-words';
import { Layout } from './layout';
import { CsrfField } from './parts';

export interface DeletePageProps {
  t: Messages;
  user: PanelUser;
  csrf: string;
  /** "Delete the policy escalate?" */
  title: string;
  /** What goes with it, one line each (a policy's steps, a schedule's layers). */
  lines: string[];
  /** Who uses it (src/store/usage-of.ts): when any, the page offers no delete. */
  usedBy: readonly UsedBy[];
  /** The same POST again, now with `confirm=1`. */
  action: string;
  cancelHref: string;
  /** 409 when the delete was refused; 200 when the page only asks. */
  status?: number;
}

/**
 * The delete button of a thing others may use leads here (docs/on-call.md "Nothing silently calls
 * nobody"): the page shows what would be deleted and, when something uses it, who, with no
 * delete button, only the way back. A page, not a script dialog (the CSP forbids inline
 * script), like confirm-page.tsx.
 */
export function deletePage(p: DeletePageProps): Response {
  const w = inUseWords(p.t);
  const inUse = p.usedBy.length > 0;
  return htmlResponse(
    <Layout t={p.t} title={p.title} user={p.user} csrf={p.csrf}>
      <section class="card" aria-labelledby="delete-what">
        <h2 id="delete-what" safe>
          {p.title}
        </h2>
        <p>{w.deletes}</p>
        <ul>
          {p.lines.map((l) => (
            <li safe>{l}</li>
          ))}
        </ul>
      </section>
      {inUse ? (
        <section class="card" aria-labelledby="used-by" data-used-by>
          <h2 id="used-by">{w.inUseTitle}</h2>
          <p class="notice error" role="alert">
            {w.inUse}
          </p>
          <ul>
            {p.usedBy.map((u) => (
              <li data-kind={u.kind} data-id={u.id}>
                {w.kinds[u.kind]}: <span safe>{u.name}</span>
              </li>
            ))}
          </ul>
          <a href={p.cancelHref}>{w.back}</a>
        </section>
      ) : (
        <form id="confirm" method="post" action={p.action}>
          <CsrfField csrf={p.csrf} />
          <input type="hidden" name="confirm" value="1" />
          <button type="submit" class="danger">
            {w.deleteButton}
          </button>{' '}
          <a href={p.cancelHref}>{p.t.cancel}</a>
        </form>
      )}
    </Layout>,
    p.status ?? 200,
  );
}
