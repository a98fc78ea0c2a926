import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';

/** docs/telephony.md "Voice desk": the CLI, as an operator runs it (the calls themselves: test/e2e/voice-desk.test.ts). */
describe('voice-alert desk', () => {
  it('pin shows a new 8-digit PIN once (stored hashed); set-policy names a policy of the account; bad input is one clear line', async () => {
    const a = applianceDir();
    const acc = provision(a);
    const first = a.cliJson(['desk', 'pin', acc.accountId]);
    expect(first).toEqual({ account_id: acc.accountId, pin: expect.stringMatching(/^\d{8}$/) });
    const second = a.cliJson(['desk', 'pin', acc.accountId]);
    expect(second.pin).not.toBe(first.pin);
    const human = a.cli(['desk', 'pin', acc.accountId]);
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^desk PIN for ${acc.accountId}: \\d{8}   \\(shown only now\\)\\n$`));

    const db = a.database();
    try {
      const rows = (await db.query('SELECT * FROM voice_desk').all()) as { account_id: string; pin_hash: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.pin_hash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(rows)).not.toContain(second.pin);
    } finally {
      await db.close();
    }

    a.cliJson(['policy', 'create', acc.accountId, '--name', 'oncall', '--step', '5321111111:300']);
    expect(a.cliJson(['desk', 'set-policy', acc.accountId, 'oncall'])).toEqual({ account_id: acc.accountId, policy_id: expect.stringMatching(/^pol_/), policy: 'oncall' });
    expect(a.cli(['desk', 'set-policy', acc.accountId, 'nope'])).toMatchObject({ status: 1, stderr: 'voice-alert: Escalation policy not found: nope\n' });
    expect(a.cli(['desk', 'pin', 'acc_missing'])).toMatchObject({ status: 1, stderr: 'voice-alert: Account not found: acc_missing\n' });
  });
});
