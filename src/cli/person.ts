import { Command } from 'commander';
import { verificationResults, type PersonInput, type PersonRefusal } from '../people';
import { personDeletedJson, personJson } from '../outward';
import type { Person } from '../store';
import { CliError, positiveInt, print, withServices } from './context';
import { inUseError } from './in-use';
import { refusal, requireAccount } from './refusal';
import { part, printList, row } from './text';

/** The catalogue's words; `given` is what was typed (the account, the person's name or id). */
function refused(r: PersonRefusal, given: { accountId: string; person: string }): never {
  if (r.code === 'invalid_person') throw refusal(r.code, r.problem);
  if (r.code === 'invalid_phone_number') throw refusal(r.code, r.value);
  throw refusal(r.code, r.code === 'account_not_found' ? given.accountId : given.person);
}

const line = (p: Person) => row(p.id, p.name, p.language, p.phones.map((ph) => ph.number).join(', ') || 'no phone');

const human = (p: Person) =>
  [
    line(p),
    ...p.phones.map((ph, i) => part(`phone ${i + 1}`, ph.number, ph.verifiedAt ? `verified ${new Date(ph.verifiedAt).toISOString()}` : 'not verified')),
    part('sms', p.sms.join(', ') || null),
    part('e-mail', p.emails.join(', ') || null),
    part('time zone', p.timeZone),
  ].join('\n');

const collect = (v: string, previous: string[] = []) => [...previous, v];

interface FieldOptions {
  name?: string;
  phone?: string[];
  sms?: string[];
  email?: string[];
  language?: string;
  timeZone?: string;
}

/** The options given, as the API's JSON fields: only what was given (update replaces what it names). */
function inputOf(o: FieldOptions): PersonInput {
  return {
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.phone !== undefined ? { phones: o.phone } : {}),
    ...(o.sms !== undefined ? { sms: o.sms } : {}),
    ...(o.email !== undefined ? { emails: o.email } : {}),
    ...(o.language !== undefined ? { language: o.language } : {}),
    ...(o.timeZone !== undefined ? { time_zone: o.timeZone } : {}),
  };
}

const fieldOptions = (c: Command, nameRequired: boolean) => {
  (nameRequired ? c.requiredOption('--name <name>', 'who this is, unique in the account (any case); steps name them as +name') : c.option('--name <name>', 'a new name'))
    .option('--phone <number>', 'a phone, called in the order given (repeat: mobile, then desk extension …)', collect)
    .option('--sms <number>', 'a number texts go to (repeat)', collect)
    .option('--email <address>', 'an e-mail address (repeat)', collect)
    .option('--language <tr|en>', "the language calls to them speak (default: panel.language)")
    .option('--time-zone <tz>', 'their IANA time zone, e.g. Europe/Istanbul')
    .option('--json', 'print JSON');
  return c;
};

const ACCOUNT = ['<account>', 'account id (acc_…)'] as const;
const PERSON = ['<person>', 'person id (per_…) or name (any case)'] as const;

/** `person`: the people of an account (docs/on-call.md "People"). */
export function personCommand(): Command {
  const cmd = new Command('person').description('people: who is reached, with their phones in order, language and time zone');
  fieldOptions(cmd.command('create').description('add a person').argument(...ACCOUNT), true).action((accountId: string, opts: FieldOptions & { json?: boolean }, c: Command) =>
    withServices(c, async ({ people }, store) => {
      await requireAccount(store, accountId);
      const r = await people.create(accountId, inputOf(opts));
      if (!r.ok) refused(r, { accountId, person: opts.name ?? '' });
      print(opts.json === true, personJson(r.person), () => human(r.person));
    }),
  );
  cmd
    .command('list')
    .description("the account's people, one line each")
    .argument(...ACCOUNT)
    .option('--json', 'print JSON')
    .action((accountId: string, opts: { json?: boolean }, c: Command) =>
      withServices(c, async ({ people }, store) => {
        await requireAccount(store, accountId);
        printList(opts.json === true, await people.list(accountId), personJson, line);
      }),
    );
  cmd
    .command('show')
    .description('one person with their phones, texts, e-mail addresses')
    .argument(...ACCOUNT)
    .argument(...PERSON)
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts: { json?: boolean }, c: Command) =>
      withServices(c, async ({ people }, store) => {
        await requireAccount(store, accountId);
        const r = await people.get(accountId, idOrName);
        if (!r.ok) refused(r, { accountId, person: idOrName });
        print(opts.json === true, personJson(r.person), () => human(r.person));
      }),
    );
  fieldOptions(cmd.command('update').description('replace what the options name (--phone given replaces every phone)').argument(...ACCOUNT).argument(...PERSON), false).action(
    (accountId: string, idOrName: string, opts: FieldOptions & { json?: boolean }, c: Command) =>
      withServices(c, async ({ people }, store) => {
        await requireAccount(store, accountId);
        const r = await people.update(accountId, idOrName, inputOf(opts));
        if (!r.ok) refused(r, { accountId, person: r.code === 'person_name_taken' ? (opts.name ?? idOrName) : idOrName });
        print(opts.json === true, personJson(r.person), () => human(r.person));
      }),
  );
  cmd
    .command('delete')
    .description('delete a person; refused while a schedule, a policy or the fallback names them')
    .argument(...ACCOUNT)
    .argument(...PERSON)
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts: { json?: boolean }, c: Command) =>
      withServices(c, async ({ people }, store) => {
        await requireAccount(store, accountId);
        const r = await people.remove(accountId, idOrName);
        if (!r.ok && r.code === 'person_in_use') throw inUseError(r);
        if (!r.ok) refused(r, { accountId, person: idOrName });
        print(opts.json === true, personDeletedJson(r.person), () => `deleted ${r.person.name}`);
      }),
    );
  cmd
    .command('verify')
    .description("call each of the person's phones (or --phone) and ask to press 1; waits for the results (no credit used)")
    .argument(...ACCOUNT)
    .argument(...PERSON)
    .option('--phone <number>', 'only this phone of theirs')
    .option('--timeout <s>', 'give up waiting after this many seconds (default 300)', positiveInt('--timeout'))
    .option('--json', 'print one JSON line per number: {"number","ok","reason"}')
    .action((accountId: string, idOrName: string, opts: { phone?: string; timeout?: number; json?: boolean }, c: Command) =>
      withServices(c, async ({ people }, store) => {
        await requireAccount(store, accountId);
        const r = await people.verify(accountId, idOrName, opts.phone);
        if (!r.ok) refused(r, { accountId, person: idOrName });
        // The running appliance's dialer places the calls (they are rows of its queue); this
        // process only watches them end (docs/on-call.md "Verification").
        const until = Date.now() + (opts.timeout ?? 300) * 1000;
        const ids = r.calls.map((call) => call.id);
        for (;;) {
          const byId = new Map((await store.calls.getMany(ids)).map((call) => [call.id, call]));
          const results = verificationResults(ids.map((id) => byId.get(id)!));
          if (results) {
            for (const x of results) print(opts.json === true, x, () => `${x.number}: ${x.ok ? 'verified' : `not verified (${x.reason})`}`);
            const failed = results.filter((x) => !x.ok).length;
            if (failed > 0) throw new CliError(`${failed} of ${results.length} number(s) not verified`);
            return;
          }
          if (Date.now() > until) throw new CliError(`the verification calls did not end within ${opts.timeout ?? 300} s (is voice-alert serve running?)`);
          await Bun.sleep(250);
        }
      }),
    );
  return cmd;
}
