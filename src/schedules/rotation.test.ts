import { describe, expect, it } from 'vitest';
import { compileLayers, onCallAt, shiftBoundary, type LayersInput, type ScheduleRules } from '.';

/**
 * docs/on-call.md "On-call schedules": rotation arithmetic over a whole year in three zones,
 * checked against the platform's own time zone data (Intl), not against Temporal itself.
 */
const ZONES = ['Europe/Istanbul', 'Europe/Berlin', 'America/New_York'] as const;
const PEOPLE = [
  { name: 'Ayşe', number: '5321111111' },
  { name: 'Bora', number: '5322222222' },
  { name: 'Cem', number: '5323333333' },
];

/** The local wall time of an instant in a zone, read with Intl. */
function local(ms: number, tz: string) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return { date: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')), minute: Number(get('minute')), weekday: get('weekday').toLowerCase() };
}

const rules = (tz: string, layers: LayersInput, overrides: ScheduleRules['overrides'] = []): ScheduleRules => ({ timeZone: tz, layers: compileLayers(layers), overrides });

/** A small seeded generator, so a failure names the instant that broke it and repeats. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const YEAR_START = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 86_400_000;

describe.each(ZONES)('rotation over 2026 in %s', (tz) => {
  it('a daily 09:00 hand-off stays at 09:00 local every day, DST both ways', () => {
    const layer = compileLayers([{ participants: PEOPLE, shift: '1d', start: '2026-01-01T09:00' }])[0]!;
    const lengths = new Set<number>();
    for (let k = 0; k < 365; k++) {
      const at = shiftBoundary(layer, tz, k);
      const l = local(at, tz);
      expect({ k, hour: l.hour, minute: l.minute }).toEqual({ k, hour: 9, minute: 0 });
      lengths.add((shiftBoundary(layer, tz, k + 1) - at) / 3_600_000);
      // Who is on call right at the hand-off and a moment before it.
      expect(onCallAt(rules(tz, [{ participants: PEOPLE, shift: '1d', start: '2026-01-01T09:00' }]), at).name).toBe(PEOPLE[k % 3]!.name);
    }
    // Berlin and New York change clocks twice (a 23 h and a 25 h day); Istanbul keeps +03.
    expect([...lengths].sort()).toEqual(tz === 'Europe/Istanbul' ? [24] : [23, 24, 25]);
  });

  it('a 12h shift is 12 real hours, so its local hand-off moves by an hour across the change', () => {
    const layer = compileLayers([{ participants: PEOPLE, shift: '12h', start: '2026-01-01T09:00' }])[0]!;
    const first = shiftBoundary(layer, tz, 0);
    const hours = new Map<string, Set<number>>();
    for (let k = 0; k < 730; k++) {
      const at = shiftBoundary(layer, tz, k);
      expect(at - first).toBe(k * 12 * 3_600_000);
      const l = local(at, tz);
      const season = l.date < '2026-03-08' ? 'winter' : l.date > '2026-03-30' && l.date < '2026-10-25' ? 'summer' : l.date > '2026-11-02' ? 'late' : 'change';
      if (!hours.has(season)) hours.set(season, new Set());
      hours.get(season)!.add(l.hour);
    }
    expect([...hours.get('winter')!].sort()).toEqual([21, 9]);
    expect([...hours.get('late')!].sort()).toEqual([21, 9]);
    // Summer time came one hour forward: hand-offs now read 10:00 and 22:00 on the wall.
    expect([...hours.get('summer')!].sort()).toEqual(tz === 'Europe/Istanbul' ? [21, 9] : [10, 22]);
  });

  it('at random instants, who is on call and until when agree with the hand-offs', () => {
    const r = rules(tz, [{ participants: PEOPLE, shift: '2d', start: '2026-01-01T09:00' }]);
    const rand = prng(tz.length);
    for (let i = 0; i < 300; i++) {
      // From the second day on: the layer starts 2026-01-01 09:00 local.
      const at = YEAR_START + 2 * 86_400_000 + Math.floor(rand() * YEAR_MS);
      const now = onCallAt(r, at);
      // Independently: the shift is the number of whole 2-day steps since the start,
      // where a day begins at 09:00 local.
      const l = local(at, tz);
      const dayIndex = Math.round((Date.parse(`${l.date}T00:00Z`) - Date.parse('2026-01-01T00:00Z')) / 86_400_000) - (l.hour < 9 ? 1 : 0);
      expect({ at, name: now.name }).toEqual({ at, name: PEOPLE[Math.floor(dayIndex / 2) % 3]!.name });
      expect(now.until).toBeGreaterThan(at);
      const u = local(now.until!, tz);
      expect([u.hour, u.minute]).toEqual([9, 0]);
      expect(onCallAt(r, now.until! - 1).name).toBe(now.name);
      expect(onCallAt(r, now.until!).name).not.toBe(now.name);
    }
  });

  it('before start the layer has nobody; until is the start', () => {
    const r = rules(tz, [{ participants: PEOPLE, shift: '7d', start: '2026-06-01T09:00' }]);
    const now = onCallAt(r, Date.UTC(2026, 4, 1));
    expect(now).toMatchObject({ name: null, number: null });
    expect(local(now.until!, tz)).toMatchObject({ date: '2026-06-01', hour: 9, minute: 0 });
  });

  it('a restricted higher layer applies only in its local hours; the lower layer covers the rest', () => {
    const r = rules(tz, [
      { participants: [PEOPLE[0]!], shift: '7d', start: '2026-01-05T00:00' },
      {
        participants: [PEOPLE[1]!, PEOPLE[2]!],
        shift: '7d',
        start: '2026-01-05T00:00',
        restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }],
      },
    ]);
    const rand = prng(7);
    for (let i = 0; i < 400; i++) {
      const at = Date.UTC(2026, 0, 6) + Math.floor(rand() * (YEAR_MS - 10 * 86_400_000));
      const l = local(at, tz);
      const inHours = !['sat', 'sun'].includes(l.weekday) && l.hour >= 9 && l.hour < 18;
      const week = Math.floor((Date.parse(`${l.date}T00:00Z`) - Date.parse('2026-01-05T00:00Z')) / (7 * 86_400_000));
      const expected = inHours ? PEOPLE[1 + (week % 2)]!.name : PEOPLE[0]!.name;
      const now = onCallAt(r, at);
      expect({ at, local: l, name: now.name }).toEqual({ at, local: l, name: expected });
      // The change comes at 09:00 or 18:00 local, even on the days after a DST change.
      const u = local(now.until!, tz);
      expect([[9, 0], [18, 0]]).toContainEqual([u.hour, u.minute]);
    }
  });

  it('a restriction past midnight (22:00–06:00) covers the night, then hands back', () => {
    const r = rules(tz, [
      { participants: [PEOPLE[0]!], shift: '1d', start: '2026-01-01T00:00' },
      { participants: [PEOPLE[1]!], shift: '1d', start: '2026-01-01T00:00', restrictions: [{ days: ['sat'], from: '22:00', to: '06:00' }] },
    ]);
    // Saturday 2026-03-28 (the night Europe's clocks change) and 2026-10-31.
    for (const date of ['2026-03-28', '2026-10-31', '2026-11-07']) {
      const night = onCallAt(r, Date.parse(`${date}T12:00Z`));
      expect(night.name).toBe('Ayşe');
      expect(local(night.until!, tz)).toMatchObject({ date, hour: 22, minute: 0 });
      const then = onCallAt(r, night.until!);
      expect(then.name).toBe('Bora');
      expect(local(then.until!, tz)).toMatchObject({ hour: 6, minute: 0, weekday: 'sun' });
    }
  });

  it('an override beats every layer for its time, then the rotation resumes', () => {
    const layers: LayersInput = [
      { participants: PEOPLE, shift: '1d', start: '2026-01-01T09:00' },
      { participants: [PEOPLE[2]!], shift: '1d', start: '2026-01-01T09:00', restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '12:00', to: '13:00' }] },
    ];
    const from = Date.parse('2026-07-10T06:00Z');
    const to = Date.parse('2026-07-11T06:00Z');
    const r = rules(tz, layers, [
      { from, to, name: 'Deniz', number: '5324444444' },
      // Added later and overlapping: it wins where both apply.
      { from: from + 3_600_000, to: from + 2 * 3_600_000, name: null, number: '5325555555' },
    ]);
    const rand = prng(11);
    for (let i = 0; i < 100; i++) {
      const at = from + Math.floor(rand() * (to - from));
      const expected = at >= from + 3_600_000 && at < from + 2 * 3_600_000 ? '5325555555' : '5324444444';
      expect(onCallAt(r, at).number).toBe(expected);
    }
    expect(onCallAt(r, from)).toEqual({ name: 'Deniz', number: '5324444444', until: from + 3_600_000 });
    expect(onCallAt(r, from + 2 * 3_600_000).until).toBe(to);
    expect(onCallAt(r, to).number).toBe(onCallAt(rules(tz, layers), to).number);
  });
});

it('one participant and no restrictions: nobody changes, until is null', () => {
  const r = rules('Europe/Istanbul', [{ participants: [PEOPLE[0]!], shift: '1h', start: '2026-01-01T00:00' }]);
  expect(onCallAt(r, Date.UTC(2026, 5, 1))).toEqual({ name: 'Ayşe', number: '5321111111', until: null });
});
