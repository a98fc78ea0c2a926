import { fill, type Messages } from './i18n';
import { dateWords } from './i18n/date-words';
import { dateTimeExample, isInstant, ISO_DATE_TIME_EXAMPLE, readLocalDateTime, type LocalDateTime } from './date-input';

/**
 * A date-time field of a panel form read for its route: the local date-time typed (either way,
 * date-input.ts), an instant with its offset passed on as the API takes it, or the refusal in
 * the page's language naming the field and what was typed. The route shows the form again with
 * the refusal and every field as typed (nothing is lost).
 */
export type TypedDateTime = { ok: true; local: LocalDateTime } | { ok: true; instant: string } | { ok: false; problem: string };

export function readTypedDateTime(t: Messages, field: string, text: string): TypedDateTime {
  const w = dateWords(t);
  const example = dateTimeExample(t.locale);
  const value = text.trim();
  if (!value) return { ok: false, problem: fill(w.missing, { field, example }) };
  const local = readLocalDateTime(value, t.locale);
  if (local) return { ok: true, local };
  if (isInstant(value)) return { ok: true, instant: value };
  return { ok: false, problem: fill(w.notDateTime, { field, value, example, iso: ISO_DATE_TIME_EXAMPLE }) };
}

/** The hint under a date-time field: the panel's way and the ISO way. */
export function dateTimeHint(t: Messages): string {
  return fill(dateWords(t).hint, { example: dateTimeExample(t.locale), iso: ISO_DATE_TIME_EXAMPLE });
}
