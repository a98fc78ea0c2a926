/**
 * Credit periods are calendar months in the configured time zone: usage is counted
 * per `YYYY-MM`, so the reset at 00:00 on the 1st needs no job, only a new key.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(ms: number, timeZone: string): { year: number; month: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(ms);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { year: get('year'), month: get('month') };
}

/** The credit period holding instant `ms`, e.g. `2026-11`. */
export function periodOf(ms: number, timeZone: string): string {
  const { year, month } = partsIn(ms, timeZone);
  return `${year}-${String(month).padStart(2, '0')}`;
}

/** The instant the period after `ms` starts (00:00 on the next 1st in `timeZone`). */
export function nextResetAt(ms: number, timeZone: string): number {
  const current = periodOf(ms, timeZone);
  // The next 1st is 28–32 days ahead in any zone; step a day at a time from 27 days
  // on and find the first instant whose period changed, then narrow to the minute.
  let lo = ms;
  let hi = ms + 27 * 86_400_000;
  while (periodOf(hi, timeZone) === current) {
    lo = hi;
    hi += 86_400_000;
  }
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2);
    if (periodOf(mid, timeZone) === current) lo = mid;
    else hi = mid;
  }
  return Math.ceil(hi / 1000) * 1000;
}
