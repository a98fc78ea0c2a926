import { describe, expect, it } from 'vitest';
import type { Person } from '../store';
import { compileLayers, type LayersInput, type ScheduleRules } from '.';
import { coverageOf } from './coverage';

/**
 * docs/on-call.md "Coverage" across Europe/Berlin's change back to winter time (Sunday
 * 2026-10-25, 03:00 CEST → 02:00 CET, 01:00 UTC): a daily 09:00 rota of Ayşe (verified) and
 * Bora (not), off on Sundays, and a two-hour override by a bare number. Every shift and gap
 * below is written out by hand in UTC from the local times, not computed.
 */
const person = (id: string, name: string, phones: Person['phones']): Person => ({
  id, accountId: 'acc_t', name, phones, sms: [], emails: [], language: 'en', timeZone: null, createdAt: 0, updatedAt: 0,
});
const AYSE = person('per_ayse', 'Ayşe', [{ number: '5321111111', verifiedAt: Date.UTC(2026, 9, 1) }, { number: '2001', verifiedAt: null }]);
const BORA = person('per_bora', 'Bora', [{ number: '5322222222', verifiedAt: null }]);
const PEOPLE = new Map([AYSE, BORA].map((p) => [p.id, p]));

const LAYERS: LayersInput = [
  {
    participants: [{ person: 'per_ayse' }, { person: 'per_bora' }],
    shift: '1d',
    start: '2026-10-23T09:00',
    // Monday to Saturday, the whole day (from = to): Sundays nobody is on call.
    restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'], from: '00:00', to: '00:00' }],
  },
];
const at = (iso: string) => Date.parse(iso);
const RULES: ScheduleRules = {
  timeZone: 'Europe/Berlin',
  layers: compileLayers(LAYERS, PEOPLE),
  overrides: [{ from: at('2026-10-26T10:00Z'), to: at('2026-10-26T12:00Z'), name: 'Cem', number: '5323333333', person: null }],
};
// Friday 02:00 CEST to Tuesday 01:00 CET: four days of 24 real hours.
const FROM = at('2026-10-23T00:00Z');
const TO = at('2026-10-27T00:00Z');

const ayse = { name: 'Ayşe', number: '5321111111', person: 'per_ayse', phones: AYSE.phones };
const bora = { name: 'Bora', number: '5322222222', person: 'per_bora', phones: BORA.phones };

describe('coverage across a DST change (Europe/Berlin)', () => {
  const c = coverageOf(RULES, PEOPLE, FROM, TO);

  it('lists every shift with the person and each phone’s verification', () => {
    expect(c.shifts.map((s) => ({ ...s, start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString() }))).toEqual([
      // Fri 09:00 CEST → Sat 09:00 CEST.
      { start: '2026-10-23T07:00:00.000Z', end: '2026-10-24T07:00:00.000Z', ...ayse },
      // Sat 09:00 CEST → Sun 00:00 CEST, where Sunday's restriction begins.
      { start: '2026-10-24T07:00:00.000Z', end: '2026-10-24T22:00:00.000Z', ...bora },
      // Mon 00:00 CET (restriction ends) → Mon 09:00 CET: the hand-off stays at 09:00 local, now 08:00 UTC.
      { start: '2026-10-25T23:00:00.000Z', end: '2026-10-26T08:00:00.000Z', ...ayse },
      { start: '2026-10-26T08:00:00.000Z', end: '2026-10-26T10:00:00.000Z', ...bora },
      // The override by a bare number: one phone, which nothing can verify.
      { start: '2026-10-26T10:00:00.000Z', end: '2026-10-26T12:00:00.000Z', name: 'Cem', number: '5323333333', person: null, phones: [{ number: '5323333333', verifiedAt: null }] },
      // Bora again until Tue 09:00 CET: the real end, past the window.
      { start: '2026-10-26T12:00:00.000Z', end: '2026-10-27T08:00:00.000Z', ...bora },
    ]);
  });

  it('finds the gaps: before the rota starts, and the whole Sunday (25 real hours), clipped to the window', () => {
    expect(c.gaps.map((g) => [new Date(g.start).toISOString(), new Date(g.end).toISOString()])).toEqual([
      ['2026-10-23T00:00:00.000Z', '2026-10-23T07:00:00.000Z'],
      ['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'],
    ]);
    expect(c.gapMs).toBe((7 + 25) * 3_600_000);
  });

  it('names the person on call with no verified phone once, from their first shift; a verified one and a bare number are not listed', () => {
    expect(c.unverified).toEqual([{ person: 'per_bora', name: 'Bora', phones: BORA.phones, from: at('2026-10-24T07:00Z') }]);
  });

  it('a person with no phone on call is on call (not a gap) and unverified', () => {
    const nobody = person('per_dilek', 'Dilek', []);
    const people = new Map([[nobody.id, nobody]]);
    const rules: ScheduleRules = { timeZone: 'Europe/Berlin', layers: compileLayers([{ participants: [{ person: 'per_dilek' }], shift: '7d', start: '2026-10-01T09:00' }], people), overrides: [] };
    const d = coverageOf(rules, people, FROM, TO);
    expect(d.gaps).toEqual([]);
    // One person alone on the rota: their weekly shifts join into one stretch.
    expect(d.shifts.map((s) => [s.name, s.number, s.phones])).toEqual([['Dilek', null, []]]);
    expect(d.unverified).toEqual([{ person: 'per_dilek', name: 'Dilek', phones: [], from: FROM }]);
  });

  it('a window with nobody at all is one gap', () => {
    const d = coverageOf({ ...RULES, overrides: [] }, PEOPLE, at('2026-10-01T00:00Z'), at('2026-10-02T00:00Z'));
    expect(d).toEqual({ shifts: [], gaps: [{ start: at('2026-10-01T00:00Z'), end: at('2026-10-02T00:00Z') }], gapMs: 86_400_000, unverified: [] });
  });
});
