import { Temporal } from 'temporal-polyfill';
import { WEEKDAYS, type Restriction } from './layers';
import { localDate } from './rotation';

/**
 * The instants in which a layer with `restrictions` applies (docs/on-call.md "On-call schedules"):
 * each restriction is a local time range on the weekdays it names; a range whose `to` is
 * not after its `from` runs past midnight into the next day (`from` = `to`: 24 hours).
 * Local times are read in the zone each day, so a 09:00–18:00 range stays 09:00–18:00
 * local across DST.
 */
export interface Interval {
  start: number;
  end: number;
}

const atLocal = (date: Temporal.PlainDate, minutes: number, tz: string) =>
  date
    .toPlainDateTime({ hour: Math.floor(minutes / 60), minute: minutes % 60 })
    .toZonedDateTime(tz, { disambiguation: 'compatible' }).epochMilliseconds;

/** The intervals, merged and in order, that overlap [from, to). Empty restrictions: none. */
export function restrictionIntervals(restrictions: readonly Restriction[], tz: string, from: number, to: number): Interval[] {
  const raw: Interval[] = [];
  // A day before `from`: a range begun the evening before may still run at `from`.
  let date = localDate(from, tz).subtract({ days: 1 });
  const last = localDate(to, tz);
  while (Temporal.PlainDate.compare(date, last) <= 0) {
    const weekday = WEEKDAYS[date.dayOfWeek - 1]!;
    for (const r of restrictions) {
      if (!r.days.includes(weekday)) continue;
      const start = atLocal(date, r.fromMin, tz);
      const end = atLocal(r.toMin > r.fromMin ? date : date.add({ days: 1 }), r.toMin, tz);
      if (end > from && start < to && end > start) raw.push({ start, end });
    }
    date = date.add({ days: 1 });
  }
  raw.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const i of raw) {
    const prev = merged[merged.length - 1];
    if (prev && i.start <= prev.end) prev.end = Math.max(prev.end, i.end);
    else merged.push({ ...i });
  }
  return merged;
}
