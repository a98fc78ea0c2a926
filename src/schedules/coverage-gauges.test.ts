import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createScrapeRegistry } from '../metrics';
import type { Store } from '../store';
import { createCoverageGauges, createSchedulesService } from '.';

/**
 * docs/on-call.md "Coverage": the engine loop computes every account's schedules' next 14 days;
 * a scrape reads its last result as voice_alert_oncall_unverified_people and
 * voice_alert_oncall_gap_seconds, per account and schedule.
 */
let clock: ReturnType<typeof manualClock>;
let store: Store;
beforeEach(async () => {
  clock = manualClock('2026-10-23T00:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

describe('coverage gauges', () => {
  it('one series per account and schedule, from the last tick; a schedule deleted drops its series', async () => {
    const schedules = createSchedulesService({ store, clock });
    const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'o', plan: 'starter' }));
    const person = (accountId: string, name: string, verifiedAt: number | null) =>
      store.transaction((tx) => tx.people.create(accountId, { name, phones: [{ number: '5321111111', verifiedAt }], sms: [], emails: [], language: 'tr', timeZone: null }, clock()));
    await person(acc.id, 'Ayşe', clock());
    await person(acc.id, 'Bora', null);
    await person(other.id, 'Cem', null);
    // Weekdays only, 1d turns from Friday 09:00 Berlin: the 14 days from Friday 02:00 CEST hold two
    // weekends (each 48 local hours, the first one 49 real ones: the clocks go back) and the first 7 hours.
    const weekdays = { days: ['mon', 'tue', 'wed', 'thu', 'fri'] as const, from: '00:00', to: '00:00' };
    expect((await schedules.create(acc.id, { name: 'noc', timeZone: 'Europe/Berlin', layers: [{ participants: [{ person: 'Ayşe' }, { person: 'Bora' }], shift: '1d', start: '2026-10-23T09:00', restrictions: [{ ...weekdays, days: [...weekdays.days] }] }] })).ok).toBe(true);
    expect((await schedules.create(acc.id, { name: 'db team', timeZone: 'UTC', layers: [{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-10-01T00:00' }] })).ok).toBe(true);
    expect((await schedules.create(other.id, { name: 'noc', timeZone: 'UTC', layers: [{ participants: [{ person: 'Cem' }], shift: '7d', start: '2026-10-01T00:00' }] })).ok).toBe(true);

    const gauges = createCoverageGauges({ store, clock });
    const registry = createScrapeRegistry({ store, clock, coverage: () => gauges.readings() });
    const lines = async () => (await registry.metrics()).split('\n').filter((l) => l.startsWith('voice_alert_oncall_')).sort();
    expect(await lines()).toEqual([]);
    await gauges.tick();
    // Gaps: Fri 00:00Z–07:00Z (7 h), Sat 00:00 CEST–Mon 00:00 CET (24/10 22:00Z–26/10 23:00Z, 49 h),
    // Sat 31/10 00:00 CET–Mon 02/11 00:00 CET (48 h): 104 h.
    expect(await lines()).toEqual([
      `voice_alert_oncall_gap_seconds{account="${acc.id}",schedule="db team"} 0`,
      `voice_alert_oncall_gap_seconds{account="${acc.id}",schedule="noc"} ${104 * 3600}`,
      `voice_alert_oncall_gap_seconds{account="${other.id}",schedule="noc"} 0`,
      `voice_alert_oncall_unverified_people{account="${acc.id}",schedule="db team"} 0`,
      `voice_alert_oncall_unverified_people{account="${acc.id}",schedule="noc"} 1`,
      `voice_alert_oncall_unverified_people{account="${other.id}",schedule="noc"} 1`,
    ].sort());

    expect((await schedules.remove(other.id, 'noc')).ok).toBe(true);
    await gauges.tick();
    expect((await lines()).filter((l) => l.includes(other.id))).toEqual([]);
  });
});
