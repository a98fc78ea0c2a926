import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';

/**
 * docs/on-call.md "Coverage" from the compiled binary: `coverage ACCOUNT [--days N] [--json]`
 * on the real clock. A daily UTC rota of a person (no phone verified) and a bare number
 * starting at the next midnight: the time until then is a gap, the person is unverified.
 */
describe('voice-alert coverage', () => {
  it('prints shifts with phones, the gap before the rota starts and the unverified person; refuses bad input', async () => {
    const a = applianceDir();
    const acc = provision(a);
    const p = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '5321111111', '--phone', '5324444444', '--json']);
    const midnight = new Date(Date.now() + 86_400_000);
    midnight.setUTCHours(0, 0, 0, 0);
    const start = midnight.toISOString().slice(0, 16); // local time in UTC: the next midnight
    const s = a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'UTC', '--layers', JSON.stringify([{ participants: [{ person: 'Ayşe' }, { name: 'Cem', number: '5323333333' }], shift: '1d', start }]), '--json']);

    const c = a.cliJson(['coverage', acc.accountId, '--days', '3', '--json']);
    const T = midnight.getTime();
    const at = (ms: number) => new Date(ms).toISOString();
    const from = Date.parse(c.from);
    expect(Date.parse(c.to) - from).toBe(3 * 86_400_000);
    const ayse = { name: 'Ayşe', number: '5321111111', person: p.id, phones: [{ number: '5321111111', verified_at: null }, { number: '5324444444', verified_at: null }] };
    expect(c).toEqual({
      account_id: acc.accountId,
      from: c.from,
      to: c.to,
      days: 3,
      schedules: [
        {
          id: s.id,
          name: 'noc',
          time_zone: 'UTC',
          shifts: [
            { start: at(T), end: at(T + 86_400_000), ...ayse },
            { start: at(T + 86_400_000), end: at(T + 2 * 86_400_000), name: 'Cem', number: '5323333333', person: null, phones: [{ number: '5323333333', verified_at: null }] },
            { start: at(T + 2 * 86_400_000), end: at(T + 3 * 86_400_000), ...ayse },
          ],
          gaps: [{ start: c.from, end: at(T), seconds: Math.round((T - from) / 1000) }],
          gap_seconds: Math.round((T - from) / 1000),
          unverified: [{ person: p.id, name: 'Ayşe', phones: ayse.phones, from: at(T) }],
        },
      ],
    });
    // 14 days by default.
    expect(a.cliJson(['coverage', acc.accountId, '--json'])).toMatchObject({ days: 14 });

    const text = a.cli(['coverage', acc.accountId, '--days', '3']);
    expect(text.status).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${s.id}\tnoc\tUTC\t1 gap\\(s\\) [\\dhm ]+\t1 unverified$`));
    expect(lines.slice(1)).toEqual([
      `  shift\t${at(T)}\t${at(T + 86_400_000)}\tAyşe\t5321111111 not verified, 5324444444 not verified`,
      `  shift\t${at(T + 86_400_000)}\t${at(T + 2 * 86_400_000)}\tCem\t5323333333 (a number, not a person)`,
      `  shift\t${at(T + 2 * 86_400_000)}\t${at(T + 3 * 86_400_000)}\tAyşe\t5321111111 not verified, 5324444444 not verified`,
      // This run's own now: a moment after the JSON run's.
      expect.stringMatching(new RegExp(String.raw`^  gap\t\d{4}-\d\d-\d\dT[\d:.]+Z\t${at(T)}\t(\d+h( \d+m)?|\d+m)$`)),
      `  unverified\tAyşe\t${p.id}\ton call from ${at(T)}\t5321111111 not verified, 5324444444 not verified`,
    ]);

    const badDays = a.cli(['coverage', acc.accountId, '--days', '0']);
    expect([badDays.status, badDays.stderr]).toEqual([2, 'voice-alert: --days must be a whole number from 1 to 90, got "0"\n']);
    const unknown = a.cli(['coverage', 'acc_nope', '--json']);
    expect([unknown.status, unknown.stderr, unknown.stdout]).toEqual([1, 'voice-alert: Account not found: acc_nope\n', '']);
    // An account with no schedule: nothing as text, an empty list as JSON.
    const empty = provision(a);
    expect(a.cli(['coverage', empty.accountId]).stdout).toBe('');
    expect(a.cliJson(['coverage', empty.accountId, '--json']).schedules).toEqual([]);
  }, 90_000);
});
