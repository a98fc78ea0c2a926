import type { Fallback } from '../../../store';
import { fill, type Messages } from '../i18n';
import { unroutableWords } from '../i18n/unroutable-words';
import { CsrfField } from './parts';

/**
 * The account's fallback (docs/on-call.md "Nothing silently calls nobody"), on the policies page:
 * who is called when nothing else resolves: a number, or `+name`, a person (docs/on-call.md
 * "People"). An empty field clears it. `draft`: the value as typed, shown again when it was
 * refused; `personName`: the fallback person's name, when the fallback is a person.
 */
export function FallbackCard({
  t,
  csrf,
  accountId,
  fallback,
  draft,
  personName,
}: {
  t: Messages;
  csrf: string;
  accountId: string;
  fallback: Fallback | null;
  draft?: string;
  personName?: string | null;
}) {
  const w = unroutableWords(t);
  const current = fallback?.personId ? `+${personName ?? fallback.personId}` : (fallback?.phoneNumber ?? '');
  return (
    <section class="card" aria-labelledby="fallback" data-fallback={current}>
      <h2 id="fallback">{w.fallbackTitle}</h2>
      <p class="hint">{w.fallbackIntro}</p>
      {fallback ? '' : <p class="notice error">{w.fallbackNone}</p>}
      <form method="post" action={`/panel/a/${accountId}/fallback`}>
        <CsrfField csrf={csrf} />
        <div class="field">
          <label for="fallback-phone">{w.fallbackNumber}</label>
          <input id="fallback-phone" name="phone" maxlength="64" aria-describedby="fallback-hint" value={draft ?? current} />
          <p class="hint" id="fallback-hint">{w.fallbackHint}</p>
        </div>
        <button type="submit">{w.fallbackSave}</button>
      </form>
    </section>
  );
}

/** The refusal's words for the page's notice. */
export const fallbackProblem = (t: Messages, value: string) => fill(unroutableWords(t).fallbackInvalid, { value });
