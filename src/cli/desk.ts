import { Command } from 'commander';
import { deskPinJson, deskPolicyJson } from '../outward';
import type { DeskPinResult, DeskPolicyResult } from '../voice-desk';
import { CliError, print, withServices } from './context';

const WHY = { account_not_found: 'no such account', policy_not_found: 'no such policy in this account' } as const;

function unwrap<T extends DeskPinResult | DeskPolicyResult>(r: T): Extract<T, { ok: true }> {
  if (!r.ok) throw new CliError(WHY[r.code]);
  return r as Extract<T, { ok: true }>;
}

/** `desk`: the voice desk's PIN and the policy keypad 0 connects to (README "Voice desk"). */
export function deskCommand(): Command {
  const cmd = new Command('desk').description('voice desk: engineers call the appliance to hear, acknowledge and resolve alerts');
  cmd
    .command('pin <account-id>')
    .description('make a new desk PIN for the account (shown only now; the old one stops working)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ desk }) => {
        const r = unwrap(await desk.newPin(accountId));
        print(opts.json, deskPinJson(r), () => `desk PIN for ${r.accountId}: ${r.pin}   (shown only now)`);
      }),
    );
  cmd
    .command('set-policy <account-id> <policy>')
    .description('keypad 0 connects to the first step of this escalation policy (id or name)')
    .option('--json', 'print JSON')
    .action((accountId: string, policy: string, opts, c: Command) =>
      withServices(c, async ({ desk }) => {
        const r = unwrap(await desk.setPolicy(accountId, policy));
        print(opts.json, deskPolicyJson(r), () => `desk policy for ${r.accountId}: ${r.policy.name} (${r.policy.id})`);
      }),
    );
  return cmd;
}
