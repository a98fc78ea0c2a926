import { Command } from 'commander';
import { systemClock } from '../clock';
import { errorBody } from '../errors';
import type { WindowResult } from '../maintenance';
import { maintenanceDeletedJson, maintenanceJson, newMaintenanceJson } from '../outward';
import type { MaintenanceWindow } from '../store';
import { CliError, print, withServices } from './context';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const human = (w: MaintenanceWindow, now: number) => {
  const j = maintenanceJson(w, now);
  return `${j.id}  ${j.start} → ${j.end}  ${j.state}  ${j.match.length ? j.match.join(' ') : '(every alert)'}${j.reason ? `  "${j.reason}"` : ''}`;
};

function unwrap(r: WindowResult): MaintenanceWindow {
  if (r.ok) return r.window;
  if (r.code === 'account_not_found') throw new CliError('no such account');
  throw new CliError(errorBody(r.code, r.detail).message);
}

/** `maintenance`: windows during which an account's matching alerts call nobody (README "Maintenance windows"). */
export function maintenanceCommand(): Command {
  const cmd = new Command('maintenance').description('maintenance windows: alerts are stored but nobody is called');
  cmd
    .command('create <account-id>')
    .description('create a window; one --match per rule (none: every alert of the account)')
    .requiredOption('--start <iso>', 'when it starts, ISO 8601 with a zone (2026-11-25T22:00:00Z, 2026-11-26T01:00+03:00)')
    .requiredOption('--end <iso>', 'when it ends')
    .option('--match <rule>', 'key=PREFIX, source=NAME or label:NAME=VALUE (repeatable)', collect)
    .option('--reason <text>', 'why, shown with the window')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }) => {
        const r = await maintenance.create(accountId, { start: opts.start, end: opts.end, reason: opts.reason, match: opts.match ?? [] });
        const w = unwrap(r);
        const now = systemClock();
        const cancelled = r.ok && r.start ? r.start.cancelledCallIds : [];
        print(opts.json, newMaintenanceJson(w, now, cancelled), () => human(w, now));
      }),
    );
  cmd
    .command('list <account-id>')
    .description('windows not ended yet, latest start first')
    .option('--all', 'also the windows that ended')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }) => {
        const all = await maintenance.list(accountId, { all: !!opts.all });
        const now = systemClock();
        print(opts.json, all.map((w) => maintenanceJson(w, now)), () => (all.length ? all.map((w) => human(w, now)).join('\n') : 'no maintenance windows'));
      }),
    );
  cmd
    .command('show <window-id>')
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }) => {
        const w = unwrap(await maintenance.get(null, id));
        print(opts.json, maintenanceJson(w, systemClock()), () => human(w, systemClock()));
      }),
    );
  cmd
    .command('delete <window-id>')
    .description('ends it now: from here on its alerts are called again on their next repeat')
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }) => {
        const w = unwrap(await maintenance.remove(null, id));
        print(opts.json, maintenanceDeletedJson(w, systemClock()), () => `deleted ${w.id}`);
      }),
    );
  return cmd;
}
