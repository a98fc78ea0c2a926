import { bundleText } from '../tts/bundle';
import { LANGUAGES, type Language } from '../tts/language';

/** Contract: text built from a payload is cut to 500 characters (code points), never refused. */
export const MAX_SPOKEN_CHARS = 500;

/** A value as text when it is a non-empty string (or a number), else null. */
export function str(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const t = value.trim();
  return t === '' ? null : t;
}

export function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Parts joined as sentences a listener can follow: "High CPU. db1:9100." (empty parts dropped). */
export function sentences(parts: (string | null | undefined)[]): string {
  return parts
    .map((p) => p?.replace(/\s+/g, ' ').trim())
    .filter((p): p is string => !!p)
    .map((p) => (/[.!?]$/.test(p) ? p : `${p}.`))
    .join(' ');
}

/**
 * One message from the texts of a payload: one text as it is; several as the bundle wording
 * callers already hear for paced alerts ("3 alarm. Birinci: … İkinci: …"), then cut to fit.
 */
export function spokenMessage(texts: string[], language: Language): string {
  const message = texts.length === 1 ? texts[0]! : bundleText(LANGUAGES[language], texts);
  return cutForSpeech(message);
}

/** At most MAX_SPOKEN_CHARS code points, cut at a word boundary when one is near the end. */
export function cutForSpeech(text: string): string {
  const points = Array.from(text.trim());
  if (points.length <= MAX_SPOKEN_CHARS) return points.join('');
  const cut = points.slice(0, MAX_SPOKEN_CHARS - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > cut.length * 0.8 ? cut.slice(0, space) : cut}…`;
}

/** A rule name read as words: "InstanceDown" → "Instance Down", "disk_full" → "disk full". */
export function nameAsWords(name: string | null): string | null {
  if (!name) return null;
  return name
    .replace(/[_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim();
}

/** Words for states a payload names in codes (Azure `Sev3`, `Fired`). */
export const STATE_WORDS: Record<Language, { severity: (n: string) => string; fired: string; resolved: string }> = {
  tr: { severity: (n) => `Önem derecesi ${n}`, fired: 'Tetiklendi', resolved: 'Çözüldü' },
  en: { severity: (n) => `Severity ${n}`, fired: 'Fired', resolved: 'Resolved' },
};
