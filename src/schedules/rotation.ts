import { Temporal } from 'temporal-polyfill';
import type { Layer, Participant } from './layers';

/**
 * One layer's turns (docs/on-call.md "On-call schedules"). Shift k of a layer begins:
 * - `Nd`: at `start` + k·N calendar days, read as a local date-time in the zone, so every
 *   hand-off keeps its local wall time across DST (a local time the clocks skip is taken
 *   as the instant just after the gap, Temporal's "compatible");
 * - `Nh`: at the instant of `start` + k·N real hours, so its local time moves by an hour
 *   when the clocks change.
 * Before shift 0 the layer has nobody.
 */

const HOUR_MS = 3_600_000;

export interface LayerShift {
  /** Shift index k (0-based). */
  index: number;
  start: number;
  end: number;
  participant: Participant;
}

const startInstant = (layer: Layer, tz: string) =>
  layer.start.toZonedDateTime(tz, { disambiguation: 'compatible' }).epochMilliseconds;

/** Unix ms at which shift k of the layer begins. */
export function shiftBoundary(layer: Layer, tz: string, k: number): number {
  if (layer.shift.unit === 'h') return startInstant(layer, tz) + k * layer.shift.n * HOUR_MS;
  return layer.start.add({ days: k * layer.shift.n }).toZonedDateTime(tz, { disambiguation: 'compatible' }).epochMilliseconds;
}

/** The local calendar date of an instant in the zone. */
export function localDate(ms: number, tz: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz).toPlainDate();
}

/** The index of the shift running at `at`, or -1 before the layer's start. */
export function shiftIndexAt(layer: Layer, tz: string, at: number): number {
  const first = shiftBoundary(layer, tz, 0);
  if (at < first) return -1;
  let k: number;
  if (layer.shift.unit === 'h') {
    k = Math.floor((at - first) / (layer.shift.n * HOUR_MS));
  } else {
    // A first guess from the calendar, then corrected: near a hand-off the local date and
    // the shift can disagree by one.
    const days = layer.start.toPlainDate().until(localDate(at, tz), { largestUnit: 'days' }).days;
    k = Math.max(0, Math.floor(days / layer.shift.n));
    while (k > 0 && shiftBoundary(layer, tz, k) > at) k--;
    while (shiftBoundary(layer, tz, k + 1) <= at) k++;
  }
  return k;
}

const participantOf = (layer: Layer, k: number) => layer.participants[k % layer.participants.length]!;

/** The layer's shifts that overlap [from, to), in order, with their whole extent. */
export function layerShifts(layer: Layer, tz: string, from: number, to: number): LayerShift[] {
  const out: LayerShift[] = [];
  let k = Math.max(0, shiftIndexAt(layer, tz, from));
  let start = shiftBoundary(layer, tz, k);
  while (start < to) {
    const end = shiftBoundary(layer, tz, k + 1);
    if (end > from) out.push({ index: k, start, end, participant: participantOf(layer, k) });
    k++;
    start = end;
  }
  return out;
}
