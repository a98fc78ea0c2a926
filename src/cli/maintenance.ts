import { Command } from 'commander';
import { systemClock } from '../clock';
import type { WindowResult } from '../maintenance';
import { maintenanceDeletedJson, maintenanceJson, newMaintenanceJson } from '../outward';
import type { MaintenanceWindow } from '../store';
import { print, withServices } from './context';
import { accountThenId, refusal, requireAccount } from './refusal';
import { printList, row } from './text';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const human = (w: MaintenanceWindow, now: number) => {
  const j = maintenanceJson(w, now);
  return row(j.id, j.start, j.end, j.state, j.match.length ? j.match.join(' ') : '(every alert)', j.reason);
};

/** The catalogue's words; a window not found names the id that was typed. */
function unwrap(r: WindowResult, given: { accountId: string | null; id?: string }): MaintenanceWindow {
  if (r.ok) return r.window;
  if (r.code === 'account_not_found') throw refusal(r.code, given.accountId ?? undefined);
  throw refusal(r.code, r.detail ?? (r.code === 'maintenance_not_found' ? given.id : undefined));
}

const ACCOUNT = ['<account>', 'account id (acc_…)'] as const;

/** `maintenance`: windows during which an account's matching alerts call nobody (docs/on-call.md "Maintenance windows"). */
export function maintenanceCommand(): Command {
  const cmd = new Command('maintenance').description('maintenance windows: alerts are stored but nobody is called');
  cmd
    .command('create')
    .description('create a window; one --match per rule (none: every alert of the account)')
    .argument(...ACCOUNT)
    .requiredOption('--start <iso>', 'when it starts, ISO 8601 with a zone (2026-11-25T22:00:00Z, 2026-11-26T01:00+03:00)')
    .requiredOption('--end <iso>', 'when it ends')
    .option('--match <rule>', 'key=PREFIX, source=NAME or label:NAME=VALUE (repeatable)', collect)
    .option('--reason <text>', 'why, shown with the window')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }, store, config) => {
        await requireAccount(store, accountId);
        const r = await maintenance.create(accountId, { start: opts.start, end: opts.end, reason: opts.reason, match: opts.match ?? [] });
        const w = unwrap(r, { accountId });
        const now = systemClock();
        const cancelled = r.ok && r.start ? r.start.cancelledCallIds : [];
        print(opts.json, newMaintenanceJson(w, now, cancelled), () => human(w, now));
      }),
    );
  cmd
    .command('list')
    .description('windows not ended yet, latest start first')
    .argument(...ACCOUNT)
    .option('--all', 'also the windows that ended')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ maintenance }, store, config) => {
        await requireAccount(store, accountId);
        const all = await maintenance.list(accountId, { all: !!opts.all });
        const now = systemClock();
        printList(opts.json, all, (w) => maintenanceJson(w, now), (w) => human(w, now));
      }),
    );
  // `show|delete ACCOUNT ID`; the older `show|delete ID` (any account's window) still works.
  const byId = ['<account>', 'account id (acc_…); the older form gives only the window id'] as const;
  const windowId = ['[window]', 'window id (mw_…)'] as const;
  cmd
    .command('show')
    .description('one window: its times, state, match rules and reason')
    .argument(...byId)
    .argument(...windowId)
    .option('--json', 'print JSON')
    .action((first: string, second: string | undefined, opts, c: Command) =>
      withServices(c, async ({ maintenance }, store, config) => {
        const { accountId, id } = accountThenId(first, second);
        if (accountId !== null) await requireAccount(store, accountId);
        const w = unwrap(await maintenance.get(accountId, id), { accountId, id });
        print(opts.json, maintenanceJson(w, systemClock()), () => human(w, systemClock()));
      }),
    );
  cmd
    .command('delete')
    .description('ends it now: from here on its alerts are called again on their next repeat')
    .argument(...byId)
    .argument(...windowId)
    .option('--json', 'print JSON')
    .action((first: string, second: string | undefined, opts, c: Command) =>
      withServices(c, async ({ maintenance }, store, config) => {
        const { accountId, id } = accountThenId(first, second);
        if (accountId !== null) await requireAccount(store, accountId);
        const w = unwrap(await maintenance.remove(accountId, id), { accountId, id });
        print(opts.json, maintenanceDeletedJson(w, systemClock()), () => `deleted ${w.id}`);
      }),
    );
  return cmd;
}
