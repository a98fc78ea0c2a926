import { Command } from 'commander';
import type { PolicyInput, PolicyResult } from '../escalation';
import { defaultPolicyJson, policyDeletedJson, policyJson } from '../outward';
import { namesPerson, peopleById } from '../people';
import type { Person, Policy } from '../store';
import { positiveInt, print, withServices, withStore } from './context';
import { inUseError } from './in-use';
import { refusal, requireAccount, UsageError } from './refusal';
import { part, printList, row } from './text';

type Refusal = Exclude<PolicyResult, { ok: true }>;

/** The catalogue's words; `given` is what was typed (the account, the policy, the API key). */
function refused(r: Refusal, given: { accountId: string; policy?: string; apiKey?: string }): never {
  if ('problem' in r) throw refusal(r.code, r.problem);
  const detail = { account_not_found: given.accountId, policy_not_found: given.policy, policy_name_taken: given.policy, credential_not_found: given.apiKey }[r.code];
  throw refusal(r.code, detail);
}

/**
 * `--step "+Ayşe,@noc,5321111111,5322222222:300"`: numbers (with `@`, on-call schedules; with
 * `+`, people: docs/on-call.md "People") called at once, then the wait in seconds.
 */
function parseStep(value: string, previous: PolicyInput['steps'] = []): PolicyInput['steps'] {
  const m = /^([^:]+)(?::(\d+))?$/.exec(value.trim());
  if (!m) throw new UsageError(`--step must be NUMBERS[:WAIT_S], got "${value}"`);
  const targets = m[1]!.split(',').map((n) => n.trim()).filter(Boolean);
  const numbers = targets.filter((t) => !t.startsWith('@') && !namesPerson(t));
  const schedules = targets.filter((t) => t.startsWith('@')).map((t) => t.slice(1));
  const people = targets.filter(namesPerson).map((t) => t.slice(1).trim());
  return [...previous, { numbers, ...(people.length ? { people } : {}), ...(schedules.length ? { schedules } : {}), ...(m[2] ? { wait_s: Number(m[2]) } : {}) }];
}

const line = (p: Policy) => row(p.id, p.name, `${p.rounds} round(s)`, `${p.steps.length} step(s)`);

/** People are kept by id (src/people/refs.ts): shown by name as `+Ayşe`. */
const human = (p: Policy, people: ReadonlyMap<string, Person> = new Map()) =>
  [
    line(p),
    ...p.steps.map((s, i) =>
      part(
        `step ${i + 1}`,
        [...(s.people ?? []).map((id) => `+${people.get(id)?.name ?? id}`), ...(s.schedules ?? []).map((n) => `@${n}`), ...s.numbers].join(', '),
        `wait ${s.wait_s} s`,
      ),
    ),
  ].join('\n');

/** `policy`: escalation policies of an account (docs/on-call.md "Escalation: call until someone presses 1"). */
export function policyCommand(): Command {
  const cmd = new Command('policy').description('escalation policies: who is called, in which order, until someone presses 1');
  cmd
    .command('create')
    .description('create a policy: --step once per step, in order')
    .argument('<account>', 'account id (acc_…)')
    .requiredOption('--name <name>', 'its name, unique in the account (requests name it with "policy"); letters, digits, spaces, . _ -')
    .requiredOption('--step <numbers[:wait_s]>', 'numbers (with @schedule and +person names) called at once, and how long to wait for a 1 (default 300 s)', parseStep)
    .option('--rounds <n>', 'how many times the whole list is called (default 2)', positiveInt('--rounds'))
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ policies }, store) => {
        await requireAccount(store, accountId);
        const r = await policies.create(accountId, { name: opts.name, steps: opts.step, rounds: opts.rounds });
        if (!r.ok) refused(r, { accountId, policy: opts.name });
        const people = await peopleById(store, accountId);
        print(opts.json, policyJson(r.policy), () => human(r.policy, people));
      }),
    );
  cmd
    .command('update')
    .description('change a policy in place (heartbeats, keys and the voice desk keep following it): what is not given stays; --step replaces every step')
    .argument('<account>', 'account id (acc_…)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--name <name>', 'a new name')
    .option('--step <numbers[:wait_s]>', 'the new steps, in order, as for create', parseStep)
    .option('--rounds <n>', 'how many times the whole list is called', positiveInt('--rounds'))
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ policies }, store) => {
        await requireAccount(store, accountId);
        if (opts.name === undefined && opts.step === undefined && opts.rounds === undefined) throw new UsageError('nothing to change: give --name, --step or --rounds');
        const current = await store.policies.find(accountId, idOrName);
        if (!current) throw refusal('policy_not_found', idOrName);
        const r = await policies.update(accountId, current.id, { name: opts.name ?? current.name, steps: opts.step ?? current.steps, rounds: opts.rounds ?? current.rounds });
        if (!r.ok) refused(r, { accountId, policy: opts.name ?? idOrName });
        print(opts.json, policyJson(r.policy), () => human(r.policy));
      }),
    );
  cmd
    .command('list')
    .description("the account's policies, one line each (show prints the steps)")
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store) => {
        await requireAccount(store, accountId);
        printList(opts.json, await store.policies.list(accountId), policyJson, line);
      }),
    );
  cmd
    .command('show')
    .description('one policy with its steps')
    .argument('<account>', 'account id (acc_…)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store) => {
        await requireAccount(store, accountId);
        const p = await store.policies.find(accountId, idOrName);
        if (!p) throw refusal('policy_not_found', idOrName);
        const people = await peopleById(store, accountId);
        print(opts.json, policyJson(p), () => human(p, people));
      }),
    );
  cmd
    .command('delete')
    .description('delete a policy; alerts already escalating keep their copy of it')
    .argument('<account>', 'account id (acc_…)')
    .argument('<policy>', 'policy id (pol_…) or name')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ policies }, store) => {
        await requireAccount(store, accountId);
        const r = await policies.remove(accountId, idOrName);
        if (!r.ok && r.code === 'policy_in_use') throw inUseError(r);
        if (!r.ok) refused(r, { accountId, policy: idOrName });
        print(opts.json, policyDeletedJson(r.policy), () => `deleted ${r.policy.name}`);
      }),
    );
  cmd
    .command('set-default')
    .description("the policy a credential's requests follow when they name none (omit it to clear)")
    .argument('<account>', 'account id (acc_…)')
    .argument('<api-key>', 'the credential set, by its API key')
    .argument('[policy]', 'policy id (pol_…) or name; none: clear')
    .option('--json', 'print JSON')
    .action((accountId: string, apiKey: string, idOrName: string | undefined, opts, c: Command) =>
      withServices(c, async ({ policies }, store) => {
        await requireAccount(store, accountId);
        const r = await policies.setDefault(accountId, apiKey, idOrName ?? null);
        if (!r.ok) refused(r, { accountId, policy: idOrName, apiKey });
        print(opts.json, defaultPolicyJson(apiKey, idOrName ?? null), () => (idOrName ? `${apiKey} now follows ${idOrName}` : `${apiKey} follows no policy`));
      }),
    );
  return cmd;
}
