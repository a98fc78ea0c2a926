import type { Fallback } from '../../../store';
import { fill, type Messages } from '../i18n';
import { unroutableWords } from '../i18n/unroutable-words';
import { CsrfField } from './parts';

/**
 * The account's fallback (docs/on-call.md "Nothing silently calls nobody"), on the policies page:
 * who is called when nothing else resolves. An empty number clears it. `draft`: the number
 * as typed, shown again when it was refused.
 */
export function FallbackCard({ t, csrf, accountId, fallback, draft }: { t: Messages; csrf: string; accountId: string; fallback: Fallback | null; draft?: string }) {
  const w = unroutableWords(t);
  return (
    <section class="card" aria-labelledby="fallback" data-fallback={fallback?.phoneNumber ?? ''}>
      <h2 id="fallback">{w.fallbackTitle}</h2>
      <p class="hint">{w.fallbackIntro}</p>
      {fallback ? '' : <p class="notice error">{w.fallbackNone}</p>}
      <form method="post" action={`/panel/a/${accountId}/fallback`}>
        <CsrfField csrf={csrf} />
        <div class="field">
          <label for="fallback-phone">{w.fallbackNumber}</label>
          <input id="fallback-phone" name="phone" type="tel" maxlength="30" value={draft ?? fallback?.phoneNumber ?? ''} />
        </div>
        <button type="submit">{w.fallbackSave}</button>
      </form>
    </section>
  );
}

/** The refusal's words for the page's notice. */
export const fallbackProblem = (t: Messages, value: string) => fill(unroutableWords(t).fallbackInvalid, { value });
