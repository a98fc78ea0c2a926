import type { Command } from 'commander';
import { createFallbackService, type FallbackResult } from '../accounts';
import { systemClock } from '../clock';
import { accountJson, fallbackJson } from '../outward';
import type { Fallback } from '../store';
import { CliError, print, withStore } from './context';

const human = (id: string, f: Fallback | null) => (f ? `${id} falls back to ${f.phoneNumber}` : `${id} has no fallback`);

function unwrap(r: FallbackResult, id: string): Fallback | null {
  if (r.ok) return r.fallback;
  switch (r.code) {
    case 'account_not_found':
      return fail(`no account ${id}`);
    case 'invalid_phone_number':
      return fail(`--phone: invalid phone number: ${r.value}`);
    case 'people_not_available':
      return fail('--person: people are not available yet; give the fallback as --phone NUMBER');
  }
}

const fail = (message: string): never => {
  throw new CliError(message);
};

/**
 * `account set-fallback|clear-fallback|show`: who is called when nothing else resolves
 * (README "Nothing silently calls nobody"). Added to `account` (src/cli/account.ts).
 */
export function addFallbackCommands(cmd: Command): void {
  const service = (store: Parameters<typeof createFallbackService>[0]['store'], forms: Parameters<typeof createFallbackService>[0]['numberForms']) =>
    createFallbackService({ store, clock: systemClock, numberForms: forms });
  cmd
    .command('set-fallback <id>')
    .description('who is called when an alert reaches nobody (an empty schedule, a gap in the rota)')
    .option('--phone <number>', 'a number, in any form the API accepts')
    .option('--person <name>', 'a person (reserved: refused until people exist)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { phone?: string; person?: string; json?: boolean }, c: Command) =>
      withStore(c, async (store, config) => {
        if ((opts.phone === undefined) === (opts.person === undefined)) throw new CliError('give exactly one of --phone NUMBER and --person NAME');
        const f = unwrap(await service(store, config.numbers.accept).set(id, { phone: opts.phone ?? null, person: opts.person ?? null }), id);
        print(opts.json === true, { id, fallback: fallbackJson(f) }, () => human(id, f));
      }),
    );
  cmd
    .command('clear-fallback <id>')
    .description('call nobody when an alert reaches nobody (it still warns, counts and calls back)')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }, c: Command) =>
      withStore(c, async (store, config) => {
        const f = unwrap(await service(store, config.numbers.accept).set(id, { phone: null, person: null }), id);
        print(opts.json === true, { id, fallback: fallbackJson(f) }, () => human(id, f));
      }),
    );
  cmd
    .command('show <id>')
    .description('an account, with its fallback')
    .option('--json', 'print JSON')
    .action((id: string, opts: { json?: boolean }, c: Command) =>
      withStore(c, async (store) => {
        const a = await store.accounts.get(id);
        if (!a) throw new CliError(`no account ${id}`);
        const f = await store.fallbacks.get(id);
        print(opts.json === true, { ...accountJson(a), fallback: fallbackJson(f) }, () =>
          [`${a.id}\t${a.plan}\t${a.monthlyCredit}\t${a.disabled ? 'disabled' : 'active'}\t${a.name}`, `fallback: ${f ? f.phoneNumber : 'none'}`].join('\n'),
        );
      }),
    );
}
