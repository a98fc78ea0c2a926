import { Command } from 'commander';
import { deskPinJson, deskPolicyJson } from '../outward';
import type { DeskPinResult, DeskPolicyResult } from '../voice-desk';
import { print, withServices } from './context';
import { refusal, requireAccount } from './refusal';

/** The catalogue's words, naming what was typed (the account or the policy). */
function unwrap<T extends DeskPinResult | DeskPolicyResult>(r: T, given: { accountId: string; policy?: string }): Extract<T, { ok: true }> {
  if (!r.ok) throw refusal(r.code, r.code === 'account_not_found' ? given.accountId : given.policy);
  return r as Extract<T, { ok: true }>;
}

/** `desk`: the voice desk's PIN and the policy keypad 0 connects to (docs/telephony.md "Voice desk"). */
export function deskCommand(): Command {
  const cmd = new Command('desk').description('voice desk: engineers call the appliance to hear, acknowledge and resolve alerts');
  cmd
    .command('pin')
    .description('make a new desk PIN for the account (shown only now; the old one stops working)')
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ desk }, store) => {
        await requireAccount(store, accountId);
        const r = unwrap(await desk.newPin(accountId), { accountId });
        print(opts.json, deskPinJson(r), () => `desk PIN for ${r.accountId}: ${r.pin}   (shown only now)`);
      }),
    );
  cmd
    .command('set-policy')
    .description('keypad 0 connects to the first step of this escalation policy')
    .argument('<account>', 'account id (acc_…)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--json', 'print JSON')
    .action((accountId: string, policy: string, opts, c: Command) =>
      withServices(c, async ({ desk }, store) => {
        await requireAccount(store, accountId);
        const r = unwrap(await desk.setPolicy(accountId, policy), { accountId, policy });
        print(opts.json, deskPolicyJson(r), () => `desk policy for ${r.accountId}: ${r.policy.name} (${r.policy.id})`);
      }),
    );
  return cmd;
}
