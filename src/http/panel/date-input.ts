import { Temporal } from 'temporal-polyfill';

/**
 * Dates and times typed into the panel (issue 49 §3, "dates are typed the way they are shown";
 * docs/panel.md "Typing dates"). The panel writes a local date-time as its language does
 * (`25.11.2026 22:00` in Turkish, `25/11/2026, 22:00` in British English, a weekday in front on
 * the schedules pages), so a form takes exactly that back, and the ISO form (`2026-11-25T22:00`,
 * `2026-11-25 22:00`) as before. Plain text fields, not `datetime-local`: a browser shows those
 * in its own locale's order, which is how the panel and its forms came to disagree.
 */

/** `YYYY-MM-DDTHH:MM` (`:SS` when not zero): the local form the services and the CLI take. */
export type LocalDateTime = string;

const parts = new Map<string, ('day' | 'month' | 'year')[]>();

/** The order the locale writes day, month and year in (`tr-TR`: day, month, year). */
function dateOrder(locale: string): ('day' | 'month' | 'year')[] {
  let order = parts.get(locale);
  if (!order) {
    const f = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' });
    order = f.formatToParts(Date.UTC(2026, 10, 25)).flatMap((p) => (p.type === 'day' || p.type === 'month' || p.type === 'year' ? [p.type] : []));
    parts.set(locale, order);
  }
  return order;
}

// The date's three numbers with `.`, `/` or `-` between them, then the time after a space, a
// comma or a `T`; a weekday as the schedules pages show it is allowed (and ignored) before the
// date (`Wed, 25/11/2026, 22:00`) or after it (`25.11.2026 Çar 22:00`).
const TYPED = /^(?:\p{L}+\.?,?\s+)?(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})(?:\s*,\s*|\s+|T)(?:\p{L}+\.?,?\s+)?(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?$/u;
const TYPED_DATE = /^(?:\p{L}+\.?,?\s+)?(\d{1,4})[./-](\d{1,2})[./-](\d{1,4})$/u;

/** Day, month and year from three typed numbers: ISO order when the first has four digits, else the locale's. */
function ymd(locale: string, a: string, b: string, c: string): { year: number; month: number; day: number } | null {
  if (a.length === 4) return c.length <= 2 ? { year: +a, month: +b, day: +c } : null;
  const got: Record<string, string> = {};
  for (const [i, k] of dateOrder(locale).entries()) got[k] = [a, b, c][i]!;
  if (got.year?.length !== 4 || (got.day?.length ?? 3) > 2 || (got.month?.length ?? 3) > 2) return null;
  return { year: +got.year, month: +got.month!, day: +got.day! };
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A typed local date-time as `YYYY-MM-DDTHH:MM[:SS]`, or null when it is not one (a day that
 * does not exist, `25:00`, a year of two digits, anything else). Nothing about time zones: the
 * caller reads it in the zone the page says.
 */
export function readLocalDateTime(text: string, locale: string): LocalDateTime | null {
  const m = TYPED.exec(text.trim());
  if (!m) return null;
  const d = ymd(locale, m[1]!, m[2]!, m[3]!);
  if (!d) return null;
  try {
    const t = Temporal.PlainDateTime.from({ ...d, hour: +m[4]!, minute: +m[5]!, second: m[6] ? +m[6] : 0 }, { overflow: 'reject' });
    const hm = `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}`;
    return t.second ? `${hm}:${two(t.second)}` : hm;
  } catch {
    return null;
  }
}

/** A typed day as `YYYY-MM-DD` (the same two ways: `25.11.2026` or `2026-11-25`), or null. */
export function readLocalDate(text: string, locale: string): string | null {
  const m = TYPED_DATE.exec(text.trim());
  if (!m) return null;
  const d = ymd(locale, m[1]!, m[2]!, m[3]!);
  if (!d) return null;
  try {
    return Temporal.PlainDate.from(d, { overflow: 'reject' }).toString();
  } catch {
    return null;
  }
}

/** True for an instant with its offset (`2026-11-25T19:00:00Z`): the API's form, passed on as it is. */
export function isInstant(text: string): boolean {
  try {
    Temporal.Instant.from(text.trim());
    return true;
  } catch {
    return false;
  }
}

/** `2026-11-25T22:00` as the panel writes it in `locale` (`25.11.2026 22:00`); anything else as it is. */
export function showLocalDateTime(local: string, locale: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return local;
  const v = readLocalDateTime(local, locale);
  if (!v) return local;
  const t = Temporal.PlainDateTime.from(v);
  const ms = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', ...(t.second ? { second: '2-digit' } : {}), hour12: false }).format(ms);
}

/** `YYYY-MM-DD` as the panel writes the day in `locale` (`25.11.2026`); anything else as it is. */
export function showLocalDate(isoDate: string, locale: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return isoDate;
  return new Intl.DateTimeFormat(locale, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.parse(`${isoDate}T00:00:00Z`));
}

/** The example a field shows (its placeholder and hint): 25 November 2026, 22:00, in the locale's way. */
export const dateTimeExample = (locale: string) => showLocalDateTime('2026-11-25T22:00', locale);
export const dateExample = (locale: string) => showLocalDate('2026-11-25', locale);

/** The ISO examples the hints and refusals name beside the panel's own way. */
export const ISO_DATE_TIME_EXAMPLE = '2026-11-25T22:00';
export const ISO_DATE_EXAMPLE = '2026-11-25';
