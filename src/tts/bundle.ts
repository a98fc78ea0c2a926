import type { LanguageWords } from './language';

/**
 * The text of one call that speaks several alerts for one number (per-number pacing):
 * "3 alarm. Birinci: … İkinci: … Üçüncü: …". Each alert is named so the callee can tell
 * them apart; texts must already be normalised.
 */
export function bundleText(words: LanguageWords, messages: string[], shorten: (m: string) => string = (m) => m): string {
  const parts = messages.map((m, i) => `${words.ordinal(i + 1)}: ${ensureStop(shorten(m))}`);
  return [words.bundle(messages.length), ...parts].join(' ');
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
