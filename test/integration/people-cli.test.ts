import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';

/**
 * Contract "People" from the compiled binary: `person create|list|show|update|delete ACCOUNT
 * [NAME]` with its JSON, the refusals in the CLI's words (exit 1), schedules and steps naming a
 * person (`{"person"}`, `--person`, `--step "+Ayşe,…"`), `schedule oncall` naming them.
 */
describe('voice-alert person', () => {
  it('creates, lists, shows, updates and deletes; refuses a duplicate, a bad phone, an unknown or used person', async () => {
    const a = applianceDir();
    const acc = provision(a);
    const other = provision(a);
    const p = a.cliJson(['person', 'create', acc.accountId, '--name', 'Ayşe', '--phone', '0532 111 11 11', '--phone', '5322222222', '--sms', '5321111111', '--email', 'ayse@example.com', '--language', 'en', '--time-zone', 'Europe/Istanbul', '--json']);
    expect(p).toMatchObject({
      account_id: acc.accountId,
      name: 'Ayşe',
      phones: [{ number: '5321111111', verified_at: null }, { number: '5322222222', verified_at: null }],
      sms: ['5321111111'],
      emails: ['ayse@example.com'],
      language: 'en',
      time_zone: 'Europe/Istanbul',
    });
    expect(p.id).toMatch(/^per_/);
    expect(a.cliJson(['person', 'list', acc.accountId, '--json'])).toEqual([p]);
    expect(a.cliJson(['person', 'show', acc.accountId, 'AYŞE', '--json'])).toEqual(p);
    expect(a.cli(['person', 'show', acc.accountId, 'ayşe']).stdout).toContain('5322222222');

    const dup = a.cli(['person', 'create', acc.accountId, '--name', 'ayşe']);
    expect([dup.status, dup.stderr]).toEqual([1, 'voice-alert: Person name taken: ayşe\n']);
    const bad = a.cli(['person', 'create', acc.accountId, '--name', 'Cem', '--phone', '123']);
    expect([bad.status, bad.stderr]).toEqual([1, 'voice-alert: Invalid phone number: 123\n']);
    const elsewhere = a.cli(['person', 'show', other.accountId, 'Ayşe']);
    expect([elsewhere.status, elsewhere.stderr]).toEqual([1, 'voice-alert: Person not found: Ayşe\n']);

    // A schedule and a policy name her; unknown people are refused, named.
    const unknownLayer = a.cli(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify([{ participants: [{ person: 'Zeynep' }], shift: '7d', start: '2026-01-05T09:00' }])]);
    expect([unknownLayer.status, unknownLayer.stderr]).toEqual([1, 'voice-alert: Invalid schedule: layers.0.participants.0.person: unknown person: Zeynep\n']);
    a.cliJson(['schedule', 'create', acc.accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify([{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-01-05T09:00' }]), '--json']);
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--json'])).toMatchObject({ name: 'Ayşe', number: '5321111111', person: p.id });
    const unknownStep = a.cli(['policy', 'create', acc.accountId, '--name', 'night', '--step', '+Zeynep,5323333333:60']);
    expect([unknownStep.status, unknownStep.stderr]).toEqual([1, 'voice-alert: Invalid escalation policy: steps.0.people: unknown person: Zeynep\n']);
    const policy = a.cliJson(['policy', 'create', acc.accountId, '--name', 'night', '--step', '+Ayşe,@noc,5323333333:60', '--json']);
    expect(policy.steps).toEqual([{ numbers: ['5323333333'], people: [p.id], schedules: ['noc'], wait_s: 60 }]);
    expect(a.cli(['policy', 'show', acc.accountId, 'night']).stdout).toContain('+Ayşe, @noc, 5323333333');

    const used = a.cli(['person', 'delete', acc.accountId, 'Ayşe']);
    expect(used.status).toBe(1);
    expect(used.stderr).toMatch(/^voice-alert: Person in use: used by schedule noc \(sch_\w+\), policy night \(pol_\w+\); remove those uses first\n$/);

    // A new phone holds for the schedule at once, unedited.
    const u = a.cliJson(['person', 'update', acc.accountId, 'Ayşe', '--phone', '5324444444', '--json']);
    expect(u).toMatchObject({ name: 'Ayşe', phones: [{ number: '5324444444', verified_at: null }], sms: ['5321111111'], language: 'en' });
    expect(a.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--json'])).toMatchObject({ name: 'Ayşe', number: '5324444444', person: p.id });

    a.cliJson(['policy', 'delete', acc.accountId, 'night', '--json']);
    a.cliJson(['schedule', 'delete', acc.accountId, 'noc', '--json']);
    expect(a.cliJson(['person', 'delete', acc.accountId, 'ayşe', '--json'])).toMatchObject({ id: p.id, name: 'Ayşe', deleted: true });
    expect(a.cliJson(['person', 'list', acc.accountId, '--json'])).toEqual([]);
  }, 90_000);
});
