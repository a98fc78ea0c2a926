import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';

describe('voice-alert policy', () => {
  it('create, list, show, set-default and delete, with stable JSON; bad input is one clear line', () => {
    const a = applianceDir();
    const acc = provision(a);
    const created = a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '0532 111 11 11:120', '--step', '5322222222,5323333333', '--rounds', '3']);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^pol_/),
      account_id: acc.accountId,
      name: 'oncall',
      rounds: 3,
      steps: [
        { numbers: ['5321111111'], wait_s: 120 },
        { numbers: ['5322222222', '5323333333'], wait_s: 300 },
      ],
    });
    expect(a.cliJson(['policy', 'list', acc.accountId])).toEqual([created]);
    expect(a.cliJson(['policy', 'show', acc.accountId, 'oncall'])).toEqual(created);
    expect(a.cliJson(['policy', 'set-default', acc.accountId, acc.apiKey, 'oncall'])).toEqual({ api_key: acc.apiKey, default_policy: 'oncall' });

    const bad = a.cli(['policy', 'create', acc.accountId, '--name', 'x', '--step', '123']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('voice-alert: Invalid escalation policy: steps.0.numbers: invalid phone number: 123\n');
    expect(a.cli(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '5321111111']).stderr).toBe('voice-alert: Escalation policy name taken: oncall\n');

    // The key's default uses it: refused, naming the key (docs/on-call.md "Nothing silently calls nobody"), until cleared.
    const refused = a.cli(['policy', 'delete', acc.accountId, created.id, '--json']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^voice-alert: Policy in use: used by key ${acc.apiKey} \\(cred_\\w+\\); remove those uses first\n$`));
    expect(a.cliJson(['policy', 'show', acc.accountId, 'oncall'])).toEqual(created);
    a.cliJson(['policy', 'set-default', acc.accountId, acc.apiKey]);
    expect(a.cliJson(['policy', 'delete', acc.accountId, created.id])).toMatchObject({ name: 'oncall', deleted: true });
    expect(a.cliJson(['policy', 'list', acc.accountId])).toEqual([]);
    expect(a.cli(['policy', 'show', acc.accountId, 'oncall']).status).toBe(1);
  });

  it('a policy a heartbeat uses (issue 49\'s headline bug): delete refused with exit 1 naming the heartbeat; after the heartbeat is deleted, the delete goes through', () => {
    const a = applianceDir();
    const acc = provision(a);
    const policy = a.cliJson(['policy', 'create', acc.accountId, '--name', 'backups', '--step', '5321111111']);
    const hb = a.cliJson(['heartbeat', 'create', acc.accountId, '--name', 'nightly', '--interval-s', '600', '--policy', 'backups', '--json']);
    const refused = a.cli(['policy', 'delete', acc.accountId, 'backups']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(`voice-alert: Policy in use: used by heartbeat nightly (${hb.id}); remove those uses first\n`);
    expect(a.cliJson(['policy', 'show', acc.accountId, 'backups'])).toEqual(policy);
    // The heartbeat still follows it: nothing was half-deleted.
    expect(a.cliJson(['heartbeat', 'show', acc.accountId, 'nightly'])).toMatchObject({ id: hb.id, policy_id: policy.id });

    a.cliJson(['heartbeat', 'delete', acc.accountId, 'nightly']);
    expect(a.cliJson(['policy', 'delete', acc.accountId, 'backups'])).toMatchObject({ id: policy.id, name: 'backups', deleted: true });
    expect(a.cliJson(['policy', 'list', acc.accountId])).toEqual([]);
  }, 60_000); // seven runs of the binary one after the other

  it('update: in place, the same id (a key\'s default keeps following it); what is not given stays; bad input changes nothing', () => {
    const a = applianceDir();
    const acc = provision(a);
    const created = a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '5321111111:120', '--rounds', '3']);
    a.cliJson(['policy', 'set-default', acc.accountId, acc.apiKey, 'oncall']);
    const updated = a.cliJson(['policy', 'update', acc.accountId, 'oncall', '--step', '5322222222:60', '--step', '5323333333']);
    expect(updated).toMatchObject({ id: created.id, name: 'oncall', rounds: 3, steps: [{ numbers: ['5322222222'], wait_s: 60 }, { numbers: ['5323333333'], wait_s: 300 }] });
    expect(a.cliJson(['policy', 'update', acc.accountId, created.id, '--name', 'night owls', '--rounds', '1'])).toMatchObject({ id: created.id, name: 'night owls', rounds: 1, steps: updated.steps });
    // Still the key's default: deleting it is refused.
    expect(a.cli(['policy', 'delete', acc.accountId, 'night owls']).stderr).toMatch(/^voice-alert: Policy in use: used by key/);
    const bad = a.cli(['policy', 'update', acc.accountId, 'night owls', '--step', '123']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe('voice-alert: Invalid escalation policy: steps.0.numbers: invalid phone number: 123\n');
    expect(a.cliJson(['policy', 'show', acc.accountId, created.id]).steps).toEqual(updated.steps);
    expect(a.cli(['policy', 'update', acc.accountId, 'nope', '--rounds', '2']).stderr).toBe('voice-alert: Escalation policy not found: nope\n');
    expect(a.cli(['policy', 'update', acc.accountId, 'night owls']).status).toBe(2);
  }, 60_000); // ten runs of the binary one after the other
});
