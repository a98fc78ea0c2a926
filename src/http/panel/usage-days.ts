import { createFormatter } from './format';
import type { Messages } from './i18n';

export interface DayUsage {
  /** `YYYY-MM-DD` in the credit time zone. */
  day: string;
  calls: number;
}

/** How far back the chart's query looks: a whole period always fits. */
export const USAGE_LOOKBACK_MS = 32 * 86_400_000;

/**
 * Charged calls per day of the current period, from its 1st to today, zeros included.
 * Days are calendar dates in `timeZone`, the same boundaries as the credit period.
 */
export function dailyUsage(times: number[], now: number, timeZone: string): DayUsage[] {
  const iso = createFormatter({ locale: 'en-CA' } as Messages, timeZone).isoDate;
  const today = iso(now);
  const month = today.slice(0, 8); // `YYYY-MM-`
  const counts = new Map<string, number>();
  for (const t of times) {
    const d = iso(t);
    if (d.startsWith(month) && d <= today) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const days: DayUsage[] = [];
  for (let d = 1; d <= Number(today.slice(8)); d++) {
    const day = `${month}${String(d).padStart(2, '0')}`;
    days.push({ day, calls: counts.get(day) ?? 0 });
  }
  return days;
}
