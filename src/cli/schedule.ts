import { Command } from 'commander';
import { systemClock } from '../clock';
import { iso, oncallJson, overrideJson, scheduleDeletedJson, scheduleJson, scheduleWithOverridesJson } from '../outward';
import { icsUrl, parseInstant, type OnCallResult } from '../schedules';
import type { ScheduleRecord } from '../store';
import { CliError, print, withServices, withStore } from './context';

type Refusal = Extract<OnCallResult, { ok: false }>;

const WHY: Record<Refusal['code'], string> = {
  invalid_schedule: 'invalid schedule',
  invalid_override: 'invalid override',
  schedule_name_taken: 'a schedule of that name exists in this account',
  schedule_not_found: 'no such schedule in this account',
  account_not_found: 'no such account',
};

function unwrap<T extends { ok: true }>(r: T | Refusal): T {
  if (r.ok) return r;
  throw new CliError('problem' in r ? `${WHY[r.code]}: ${r.problem}` : WHY[r.code]);
}

const isoOrNever = (ms: number | null) => iso(ms) ?? 'never';

const human = (s: ScheduleRecord, url: string) =>
  [
    `${s.id}  ${s.name}  (${s.timeZone})`,
    ...s.layers.map((l, i) => `  layer ${i + 1}: ${l.participants.map((p) => `${p.name} ${p.number}`).join(', ')}; ${l.shift} from ${l.start}${l.restrictions?.length ? `; only ${l.restrictions.map((r) => `${r.days.join(',')} ${r.from}-${r.to}`).join('; ')}` : ''}`),
    `  calendar: ${url}`,
  ].join('\n');

/** `schedule`: on-call schedules of an account (README "On-call schedules"). */
export function scheduleCommand(): Command {
  const cmd = new Command('schedule').description('on-call schedules: rotations, restrictions and overrides, in a time zone');
  cmd
    .command('create <account-id>')
    .description('create a schedule from its layers (JSON)')
    .requiredOption('--name <name>', 'its name, unique in the account (escalation steps name it as @name)')
    .requiredOption('--time-zone <tz>', 'IANA time zone the layers\' local times are read in, e.g. Europe/Istanbul')
    .requiredOption('--layers <json>', 'JSON array of layers: participants, shift (Nd or Nh), start (local), restrictions')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, _store, config) => {
        let layers: unknown;
        try {
          layers = JSON.parse(opts.layers);
        } catch {
          throw new CliError('--layers must be JSON');
        }
        const { schedule } = unwrap(await schedules.create(accountId, { name: opts.name, timeZone: opts.timeZone, layers }));
        const url = icsUrl(config, schedule.icsToken);
        print(opts.json, scheduleJson(schedule, url), () => human(schedule, url));
      }),
    );
  cmd
    .command('list <account-id>')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store, config) => {
        const all = await store.schedules.list(accountId);
        print(opts.json, all.map((s) => scheduleJson(s, icsUrl(config, s.icsToken))), () =>
          all.length ? all.map((s) => human(s, icsUrl(config, s.icsToken))).join('\n') : 'no schedules',
        );
      }),
    );
  cmd
    .command('show <account-id> <schedule>')
    .description('by id or name, with its calendar feed URL and overrides still to come')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store, config) => {
        const s = await store.schedules.find(accountId, idOrName);
        if (!s) throw new CliError(WHY.schedule_not_found);
        const overrides = await store.schedules.overrides(s.id, systemClock());
        const url = icsUrl(config, s.icsToken);
        print(opts.json, scheduleWithOverridesJson(s, url, overrides), () =>
          [human(s, url), ...overrides.map((o) => `  override: ${isoOrNever(o.startsAt)} – ${isoOrNever(o.endsAt)}  ${o.name ?? ''} ${o.phoneNumber}`)].join('\n'),
        );
      }),
    );
  cmd
    .command('delete <account-id> <schedule>')
    .description('by id or name, with its overrides')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }, _store, config) => {
        const { schedule } = unwrap(await schedules.remove(accountId, idOrName));
        print(opts.json, scheduleDeletedJson(schedule, icsUrl(config, schedule.icsToken)), () => `deleted ${schedule.name}`);
      }),
    );
  cmd
    .command('override <account-id> <schedule>')
    .description('put one person on call from --from to --to, over every layer')
    .requiredOption('--from <iso>', 'start, ISO 8601 with a zone, e.g. 2026-12-24T18:00+03:00')
    .requiredOption('--to <iso>', 'end (exclusive)')
    .requiredOption('--number <number>', 'the number called meanwhile')
    .option('--name <name>', 'who that is')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }) => {
        const { override } = unwrap(await schedules.addOverride(accountId, idOrName, { from: opts.from, to: opts.to, number: opts.number, name: opts.name }));
        print(opts.json, overrideJson(override), () => `${override.id}: ${override.name ?? override.phoneNumber} on call ${isoOrNever(override.startsAt)} – ${isoOrNever(override.endsAt)}`);
      }),
    );
  cmd
    .command('oncall <account-id> <schedule>')
    .description('who is on call now (or --at), and until when')
    .option('--at <iso>', 'the instant asked about, ISO 8601 with a zone (default: now)')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withServices(c, async ({ schedules }) => {
        let at: number | undefined;
        if (opts.at !== undefined) {
          const parsed = parseInstant(opts.at);
          if (parsed === null) throw new CliError(`--at must be an ISO 8601 instant with a zone, got "${opts.at}"`);
          at = parsed;
        }
        const { oncall } = unwrap(await schedules.oncall(accountId, idOrName, at));
        print(opts.json, oncallJson(oncall), () => (oncall.number ? `${oncall.name ?? ''} ${oncall.number} until ${isoOrNever(oncall.until)}` : `nobody until ${isoOrNever(oncall.until)}`));
      }),
    );
  return cmd;
}
