import type { Messages } from './i18n';

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${withTime}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(withTime ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false } : {}),
    });
    cache.set(key, f);
  }
  return f;
}

/** Dates and times as people in the panel's language write them, in the credit time zone. */
export interface Formatter {
  dateTime(ms: number | null): string;
  date(ms: number): string;
  /** `YYYY-MM-DD` of `ms` in the time zone: the value of an <input type=date>. */
  isoDate(ms: number): string;
}

export function createFormatter(t: Messages, timeZone: string): Formatter {
  return {
    dateTime: (ms) => (ms === null ? '—' : formatter(t.locale, timeZone, true).format(ms)),
    date: (ms) => formatter(t.locale, timeZone, false).format(ms),
    isoDate: (ms) => formatter('en-CA', timeZone, false).format(ms), // en-CA writes YYYY-MM-DD
  };
}

/**
 * The instant a `YYYY-MM-DD` day starts in `timeZone`, or undefined for anything else.
 * Found by correcting a UTC guess with the zone's offset at that moment (twice, for DST days).
 */
export function startOfDay(isoDate: string | undefined, timeZone: string): number | undefined {
  if (!isoDate || !/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) return undefined;
  const utc = Date.parse(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(utc)) return undefined;
  let guess = utc;
  for (let i = 0; i < 2; i++) guess = utc - offsetMs(guess, timeZone);
  return guess;
}

function offsetMs(ms: number, timeZone: string): number {
  const f = formatter('en-CA', timeZone, true).formatToParts(ms);
  const get = (type: string) => Number(f.find((p) => p.type === type)!.value);
  const hour = get('hour') % 24; // some engines write midnight as 24
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), hour, get('minute'), get('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}
