/**
 * Credit periods are calendar months in the configured time zone: usage is counted
 * per `YYYY-MM`, so the reset at 00:00 on the 1st needs no job, only a new key.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of instant `ms` in `timeZone`. */
function wallClock(ms: number, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

// Every request asks for the current period; Intl formatting is slow, so the answer is
// kept per zone together with the span of time it holds for.
const spans = new Map<string, { from: number; until: number; period: string }>();

/** The credit period holding instant `ms`, e.g. `2026-11`. */
export function periodOf(ms: number, timeZone: string): string {
  const span = spans.get(timeZone);
  if (span && ms >= span.from && ms < span.until) return span.period;
  const { year, month } = wallClock(ms, timeZone);
  const period = `${year}-${String(month).padStart(2, '0')}`;
  spans.set(timeZone, { from: startOfPeriod(year, month, timeZone), until: nextResetAt(ms, timeZone), period });
  return period;
}

/** 00:00 on the 1st of `year`-`month` (1-based) in `timeZone`, as an instant. */
function startOfPeriod(year: number, month: number, timeZone: string): number {
  return zonedMidnight(Date.UTC(year, month - 1, 1), timeZone);
}

/** The instant the period after `ms` starts: 00:00 on the next 1st in `timeZone`. */
export function nextResetAt(ms: number, timeZone: string): number {
  const { year, month } = wallClock(ms, timeZone);
  return zonedMidnight(Date.UTC(year, month, 1), timeZone); // month is 1-based: the next month's 1st
}

/** The instant whose wall clock in `timeZone` reads `wallTarget` (given as if it were UTC). */
function zonedMidnight(wallTarget: number, timeZone: string): number {
  // Shift by the zone's offset at that moment; a second pass settles a DST change in between.
  let instant = wallTarget;
  for (let i = 0; i < 2; i++) {
    const w = wallClock(instant, timeZone);
    const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - instant;
    instant = wallTarget - offset;
  }
  return instant;
}
