import type { LanguageWords } from './language';

/** Nobody follows more on the phone: a storm's bundle names its first ten and says how many there were. */
export const MAX_NAMED_IN_BUNDLE = 10;

/**
 * The text of one call that speaks several alerts for one number (per-number pacing):
 * "3 alarm. Birinci: … İkinci: … Üçüncü: …". Each alert named is numbered so the callee can
 * tell them apart; past MAX_NAMED_IN_BUNDLE only the first are named, after the total
 * ("40 alarm. İlk 10 tanesi: Birinci: …"). Texts must already be normalised.
 */
export function bundleText(words: LanguageWords, messages: string[], shorten: (m: string) => string = (m) => m): string {
  const named = messages.slice(0, MAX_NAMED_IN_BUNDLE);
  const parts = named.map((m, i) => `${words.ordinal(i + 1)}: ${ensureStop(shorten(m))}`);
  const head = named.length < messages.length ? [words.bundle(messages.length), words.bundleFirst(named.length)] : [words.bundle(messages.length)];
  return [...head, ...parts].join(' ');
}

/** The first sentence of a message: what is kept when a bundle would run too long. */
export function firstSentence(message: string): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(message.trim());
  return m ? m[1]! : message.trim();
}

/** At most `max` characters, cut at a word where one is near. */
export function cutTo(message: string, max: number): string {
  if (message.length <= max) return message;
  const cut = message.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return space > max * 0.6 ? cut.slice(0, space) : cut;
}

const ensureStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
