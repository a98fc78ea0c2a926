import ical from 'ical-generator';
import type { Shift } from './timeline';

/**
 * A schedule's iCalendar feed (docs/on-call.md "On-call schedules"): one VEVENT per shift, its
 * summary the participant on call. Times are written in UTC, so no VTIMEZONE is needed and
 * every calendar app places them right in its own zone. The UID is the schedule, the start
 * and the number: a calendar that polls the feed keeps an unchanged shift as one event.
 */
export function scheduleCalendar(o: { scheduleId: string; name: string; shifts: readonly Shift[]; now: number }): string {
  const cal = ical({ name: `On call: ${o.name}`, prodId: { company: 'voice-alert', product: 'schedules', language: 'EN' }, ttl: 15 * 60 });
  for (const s of o.shifts) {
    cal.createEvent({
      id: `${o.scheduleId}-${s.start}-${s.number}@voice-alert`,
      start: new Date(s.start),
      end: new Date(s.end),
      stamp: new Date(o.now),
      summary: `On call: ${s.name ?? s.number}`,
      description: `${o.name}: ${s.name ? `${s.name}, ` : ''}${s.number}`,
    });
  }
  return cal.toString();
}
