import type { Command } from 'commander';
import type { FallbackResult } from '../accounts';
import { accountJson, fallbackJson } from '../outward';
import type { Fallback } from '../store';
import { print, withServices, withStore } from './context';
import { refusal, requireAccount, UsageError } from './refusal';
import { part, row } from './text';

const human = (id: string, f: Fallback | null) => (f ? `${id} falls back to ${f.phoneNumber ?? `person ${f.personId}`}` : `${id} has no fallback`);

function unwrap(r: FallbackResult, id: string): Fallback | null {
  if (r.ok) return r.fallback;
  switch (r.code) {
    case 'account_not_found':
      throw refusal('account_not_found', id);
    case 'invalid_phone_number':
      throw refusal('invalid_phone_number', `--phone ${r.value}`);
    case 'person_not_found':
      throw refusal('person_not_found', r.value);
  }
}

/**
 * `account set-fallback|clear-fallback|show`: who is called when nothing else resolves
 * (docs/on-call.md "Nothing silently calls nobody"). Added to `account` (src/cli/account.ts).
 */
export function addFallbackCommands(cmd: Command): void {
  cmd
    .command('set-fallback')
    .argument('<account>', 'account id (acc_…)')
    .description('who is called when an alert reaches nobody (an empty schedule, a gap in the rota)')
    .option('--phone <number>', 'a number, in any form the API accepts')
    .option('--person <name>', 'or a person of the account, reached like any person (docs/on-call.md "People")')
    .option('--json', 'print JSON')
    .action((id: string, opts: { phone?: string; person?: string; json?: boolean }, c: Command) =>
      withServices(c, async ({ fallbacks }, store) => {
        await requireAccount(store, id);
        if ((opts.phone === undefined) === (opts.person === undefined)) throw new UsageError('give exactly one of --phone NUMBER and --person NAME');
        const f = unwrap(await fallbacks.set(id, { phone: opts.phone ?? null, person: opts.person ?? null }), id);
        print(opts.json === true, { id, fallback: fallbackJson(f) }, () => human(id, f));
      }),
    );
  cmd
    .command('clear-fallback')
    .argument('<account>', 'account id (acc_…)')
    .description('call nobody when an alert reaches nobody (it still warns, counts and calls back)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }, c: Command) =>
      withServices(c, async ({ fallbacks }) => {
        const f = unwrap(await fallbacks.set(id, { phone: null, person: null }), id);
        print(opts.json === true, { id, fallback: fallbackJson(f) }, () => human(id, f));
      }),
    );
  cmd
    .command('show')
    .argument('<account>', 'account id (acc_…)')
    .description('an account, with its fallback')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }, c: Command) =>
      withStore(c, async (store) => {
        const a = await store.accounts.get(id);
        if (!a) throw refusal('account_not_found', id);
        const f = await store.fallbacks.get(id);
        print(opts.json === true, { ...accountJson(a), fallback: fallbackJson(f) }, () =>
          [row(a.id, a.plan, a.monthlyCredit, a.disabled ? 'disabled' : 'active', a.name), part('fallback', f?.phoneNumber ?? (f?.personId ? `person ${f.personId}` : null))].join('\n'),
        );
      }),
    );
}
