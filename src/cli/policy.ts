import { Command } from 'commander';
import type { PolicyInput, PolicyResult } from '../escalation';
import { defaultPolicyJson, policyDeletedJson, policyJson } from '../outward';
import type { Policy } from '../store';
import { CliError, positiveInt, print, withServices, withStore } from './context';

const WHY: Record<Exclude<PolicyResult, { ok: true }>['code'], string> = {
  invalid_policy: 'invalid policy',
  policy_name_taken: 'a policy of that name exists in this account',
  policy_not_found: 'no such policy in this account',
  account_not_found: 'no such account',
  credential_not_found: 'no active credentials with that API key in this account',
};

/**
 * `--step "@noc,5321111111,5322222222:300"`: numbers (and, with `@`, on-call schedules) called
 * at once, then the wait in seconds.
 */
function parseStep(value: string, previous: PolicyInput['steps'] = []): PolicyInput['steps'] {
  const m = /^([^:]+)(?::(\d+))?$/.exec(value.trim());
  if (!m) throw new CliError(`--step must be NUMBERS[:WAIT_S], got "${value}"`);
  const targets = m[1]!.split(',').map((n) => n.trim()).filter(Boolean);
  const numbers = targets.filter((t) => !t.startsWith('@'));
  const schedules = targets.filter((t) => t.startsWith('@')).map((t) => t.slice(1));
  return [...previous, { numbers, ...(schedules.length ? { schedules } : {}), ...(m[2] ? { wait_s: Number(m[2]) } : {}) }];
}

const human = (p: Policy) =>
  [`${p.id}  ${p.name}  (${p.rounds} round(s))`, ...p.steps.map((s, i) => `  step ${i + 1}: ${[...(s.schedules ?? []).map((n) => `@${n}`), ...s.numbers].join(', ')}  then wait ${s.wait_s} s`)].join('\n');

function unwrap(r: PolicyResult): Policy {
  if (r.ok) return r.policy;
  throw new CliError('problem' in r ? `${WHY[r.code]}: ${r.problem}` : WHY[r.code]);
}

/** `policy`: escalation policies of an account (README "Escalation: call until someone presses 1"). */
export function policyCommand(): Command {
  const cmd = new Command('policy').description('escalation policies: who is called, in which order, until someone presses 1');
  cmd
    .command('create <account-id>')
    .description('create a policy: --step once per step, in order')
    .requiredOption('--name <name>', 'its name, unique in the account (requests name it with "policy")')
    .requiredOption('--step <numbers[:wait_s]>', 'numbers (and @schedule names) called at once, and how long to wait for a 1 (default 300 s)', parseStep)
    .option('--rounds <n>', 'how many times the whole list is called (default 2)', positiveInt('--rounds'))
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ policies }) => {
        const p = unwrap(await policies.create(accountId, { name: opts.name, steps: opts.step, rounds: opts.rounds }));
        print(opts.json, policyJson(p), () => human(p));
      }),
    );
  cmd
    .command('list <account-id>')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store) => {
        const all = await store.policies.list(accountId);
        print(opts.json, all.map(policyJson), () => (all.length ? all.map(human).join('\n') : 'no policies'));
      }),
    );
  cmd
    .command('show <account-id> <policy>')
    .description('by id or name')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store) => {
        const p = await store.policies.find(accountId, idOrName);
        if (!p) throw new CliError(WHY.policy_not_found);
        print(opts.json, policyJson(p), () => human(p));
      }),
    );
  cmd
    .command('delete <account-id> <policy>')
    .description('by id or name; alerts already escalating keep their copy of it')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ policies }) => {
        const p = unwrap(await policies.remove(accountId, idOrName));
        print(opts.json, policyDeletedJson(p), () => `deleted ${p.name}`);
      }),
    );
  cmd
    .command('set-default <account-id> <api-key> [policy]')
    .description("the policy a credential's requests follow when they name none (omit it to clear)")
    .option('--json', 'print JSON')
    .action((accountId: string, apiKey: string, idOrName: string | undefined, opts, c: Command) =>
      withServices(c, async ({ policies }) => {
        const r = await policies.setDefault(accountId, apiKey, idOrName ?? null);
        if (!r.ok) throw new CliError(WHY[r.code]);
        print(opts.json, defaultPolicyJson(apiKey, idOrName ?? null), () => (idOrName ? `${apiKey} now follows ${idOrName}` : `${apiKey} follows no policy`));
      }),
    );
  return cmd;
}
