import { Command } from 'commander';
import { systemClock } from '../clock';
import { iso, oncallJson, overrideJson, scheduleDeletedJson, scheduleJson, scheduleWithOverridesJson } from '../outward';
import { peopleById } from '../people';
import { describeParticipant, icsUrl, parseInstant, type OnCallResult } from '../schedules';
import type { OverrideRecord, Person, ScheduleRecord } from '../store';
import { print, withServices, withStore } from './context';
import { inUseError } from './in-use';
import { refusal, requireAccount, UsageError } from './refusal';
import { part, printList, row } from './text';

type Refusal = Extract<OnCallResult, { ok: false }>;

/** The catalogue's words; `schedule` is the id or name that was typed. */
function unwrap<T extends { ok: true }>(r: T | Refusal, given: { accountId: string; schedule: string; override?: string }): T {
  if (r.ok) return r;
  if ('problem' in r) throw refusal(r.code, r.problem);
  throw refusal(r.code, r.code === 'account_not_found' ? given.accountId : r.code === 'override_not_found' ? (given.override ?? '') : given.schedule);
}

function layersOption(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new UsageError('--layers must be JSON');
  }
}

const isoOrNever = (ms: number | null) => iso(ms) ?? 'never';

const line = (s: ScheduleRecord) => row(s.id, s.name, s.timeZone, `${s.layers.length} layer(s)`);

const human = (s: ScheduleRecord, url: string, people: ReadonlyMap<string, Person>) =>
  [
    line(s),
    ...s.layers.map((l, i) =>
      part(
        `layer ${i + 1}`,
        l.participants.map((p) => describeParticipant(p, people)).join(', '),
        `${l.shift} from ${l.start}`,
        l.restrictions?.length ? `only ${l.restrictions.map((r) => `${r.days.join(',')} ${r.from}-${r.to}`).join('; ')}` : null,
      ),
    ),
    part('calendar', url),
    ...(s.handoffCall ? [part('hand-off calls', 'on: whoever comes on call is asked to press 1')] : []),
  ].join('\n');

const ACCOUNT = ['<account>', 'account id (acc_…)'] as const;
const SCHEDULE = ['<schedule>', 'schedule id (sch_…) or name'] as const;

/** `schedule`: on-call schedules of an account (docs/on-call.md "On-call schedules"). */
export function scheduleCommand(): Command {
  const cmd = new Command('schedule').description('on-call schedules: rotations, restrictions and overrides, in a time zone');
  cmd
    .command('create')
    .description('create a schedule from its layers (JSON)')
    .argument(...ACCOUNT)
    .requiredOption('--name <name>', 'its name, unique in the account (escalation steps name it as @name); letters, digits, spaces, . _ -')
    .requiredOption('--time-zone <tz>', 'IANA time zone the layers\' local times are read in, e.g. Europe/Istanbul')
    .requiredOption('--layers <json>', 'JSON array of layers: participants, shift (Nd or Nh), start (local), restrictions')
    .option('--handoff-call', 'call whoever comes on call at each hand-off and ask them to press 1 (docs/on-call.md "Hand-off calls")')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store, config) => {
        const layers = layersOption(opts.layers);
        await requireAccount(store, accountId);
        const { schedule } = unwrap(await schedules.create(accountId, { name: opts.name, timeZone: opts.timeZone, layers, handoffCall: opts.handoffCall === true }), { accountId, schedule: opts.name });
        const people = await peopleById(store, accountId);
        const url = icsUrl(config, schedule.icsToken);
        print(opts.json, scheduleJson(schedule, url), () => human(schedule, url, people));
      }),
    );
  cmd
    .command('update')
    .description('change a schedule in place: its id, calendar feed URL and overrides stay')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .option('--name <name>', 'a new name (policies naming the old one by name must be changed too)')
    .option('--time-zone <tz>', 'a new IANA time zone')
    .option('--layers <json>', 'the new layers (JSON, as for create): they replace all the old ones')
    .option('--handoff-call', 'turn hand-off calls on (docs/on-call.md "Hand-off calls")')
    .option('--no-handoff-call', 'turn hand-off calls off')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store, config) => {
        const layers = opts.layers === undefined ? undefined : layersOption(opts.layers);
        await requireAccount(store, accountId);
        if (opts.name === undefined && opts.timeZone === undefined && layers === undefined && opts.handoffCall === undefined) throw new UsageError('nothing to change: give --name, --time-zone, --layers or --[no-]handoff-call');
        const change = {
          ...(opts.name === undefined ? {} : { name: opts.name }),
          ...(opts.timeZone === undefined ? {} : { timeZone: opts.timeZone }),
          ...(layers === undefined ? {} : { layers }),
          ...(opts.handoffCall === undefined ? {} : { handoffCall: opts.handoffCall === true }),
        };
        const r = await schedules.update(accountId, idOrName, change);
        if (!r.ok && r.code === 'schedule_in_use') throw inUseError(r);
        const { schedule } = unwrap(r, { accountId, schedule: idOrName });
        const people = await peopleById(store, accountId);
        const url = icsUrl(config, schedule.icsToken);
        print(opts.json, scheduleJson(schedule, url), () => human(schedule, url, people));
      }),
    );
  cmd
    .command('list')
    .description("the account's schedules, one line each (show prints the layers)")
    .argument(...ACCOUNT)
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store, config) => {
        await requireAccount(store, accountId);
        printList(opts.json, await store.schedules.list(accountId), (s) => scheduleJson(s, icsUrl(config, s.icsToken)), line);
      }),
    );
  cmd
    .command('show')
    .description('one schedule with its layers, calendar feed URL and overrides still to come')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store, config) => {
        await requireAccount(store, accountId);
        const s = await store.schedules.find(accountId, idOrName);
        if (!s) throw refusal('schedule_not_found', idOrName);
        const overrides = await store.schedules.overrides(s.id, systemClock());
        const url = icsUrl(config, s.icsToken);
        const people = await peopleById(store, accountId);
        const who = (o: OverrideRecord) => (o.personId ? [`+${people.get(o.personId)?.name ?? o.personId}`] : [o.name, o.phoneNumber]);
        print(opts.json, scheduleWithOverridesJson(s, url, overrides), () =>
          [human(s, url, people), ...overrides.map((o) => part('override', isoOrNever(o.startsAt), isoOrNever(o.endsAt), ...who(o)))].join('\n'),
        );
      }),
    );
  cmd
    .command('delete')
    .description('delete a schedule with its overrides')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store, config) => {
        await requireAccount(store, accountId);
        const r = await schedules.remove(accountId, idOrName);
        if (!r.ok && r.code === 'schedule_in_use') throw inUseError(r);
        const { schedule } = unwrap(r, { accountId, schedule: idOrName });
        print(opts.json, scheduleDeletedJson(schedule, icsUrl(config, schedule.icsToken)), () => `deleted ${schedule.name}`);
      }),
    );
  cmd
    .command('override')
    .description('put one person on call from --from to --to, over every layer')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .requiredOption('--from <iso>', 'start, ISO 8601 with a zone, e.g. 2026-12-24T18:00+03:00')
    .requiredOption('--to <iso>', 'end (exclusive)')
    .option('--number <number>', 'the number called meanwhile')
    .option('--person <name>', 'or a person of the account, whose phones are called in order (docs/on-call.md "People")')
    .option('--name <name>', 'who that is')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store) => {
        await requireAccount(store, accountId);
        const { override } = unwrap(await schedules.addOverride(accountId, idOrName, { from: opts.from, to: opts.to, number: opts.number ?? null, person: opts.person ?? null, name: opts.name }), {
          accountId,
          schedule: idOrName,
        });
        print(opts.json, overrideJson(override), () => row(override.id, isoOrNever(override.startsAt), isoOrNever(override.endsAt), override.personId ? `+${opts.person}` : override.name, override.phoneNumber || null));
      }),
    );
  cmd
    .command('remove-override')
    .description('remove one override (its id, as schedule show prints it)')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .argument('<override>', 'override id (ovr_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, overrideId: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store) => {
        await requireAccount(store, accountId);
        const { override } = unwrap(await schedules.removeOverride(accountId, idOrName, overrideId), { accountId, schedule: idOrName, override: overrideId });
        print(opts.json, overrideJson(override), () => `removed ${override.id}`);
      }),
    );
  cmd
    .command('oncall')
    .description('who is on call now (or --at), and until when')
    .argument(...ACCOUNT)
    .argument(...SCHEDULE)
    .option('--at <iso>', 'the instant asked about, ISO 8601 with a zone (default: now)')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, store) => {
        let at: number | undefined;
        if (opts.at !== undefined) {
          const parsed = parseInstant(opts.at);
          if (parsed === null) throw new UsageError(`--at must be an ISO 8601 instant with a zone, got "${opts.at}"`);
          at = parsed;
        }
        await requireAccount(store, accountId);
        const { oncall } = unwrap(await schedules.oncall(accountId, idOrName, at), { accountId, schedule: idOrName });
        print(opts.json, oncallJson(oncall), () => row(oncall.name ?? (oncall.number ? null : 'nobody'), oncall.number, `until ${isoOrNever(oncall.until)}`));
      }),
    );
  return cmd;
}
