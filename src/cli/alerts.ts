import { Command } from 'commander';
import type { AlertActionResult } from '../alerts';
import { alertActionJson, alertJson, ownAlertJson, type AlertJson } from '../outward';
import { ALERT_STATES, type AlertState } from '../call-model';
import { positiveInt, print, withServices, withStore } from './context';
import { accountOfList, accountThenId, refusal, requireAccount, UsageError } from './refusal';
import { part, printList, row } from './text';

/** Who an action from the command line is recorded as (alerts.acknowledged_by, state_reason). */
const BY = 'cli';

const line = (a: AlertJson) => row(a.id, a.state, a.key, `${a.calls.length} call(s)`, a.created_at, a.message);

function alertState(v: string): AlertState {
  if (!(ALERT_STATES as readonly string[]).includes(v)) throw new UsageError(`--state must be one of ${ALERT_STATES.join(', ')}, got "${v}"`);
  return v as AlertState;
}

// `show|ack|resolve ACCOUNT ID`; the older `show|ack|resolve ID` (any account's alert) still works.
const ACCOUNT = ['<account>', 'account id (acc_…); the older form gives only the alert id'] as const;
const ALERT = ['[alert]', 'alert id (alt_…)'] as const;

/**
 * `voice-alert alerts list|show|ack|resolve`: the administrator's view of every account's
 * alerts; with ACCOUNT, of that account's only (`show|ack|resolve ID` without it still works). The JSON is the same builder as GET /api/alerts/{id}'s `alert` field; ack and
 * resolve are the same actions as the API and the panel (src/alerts), recorded as by `cli`.
 */
export function alertsCommand(): Command {
  const cmd = new Command('alerts').description('alerts: one per accepted request, with its key, state and calls');
  cmd
    .command('list')
    .description('newest alerts first, of every account or of ACCOUNT')
    .argument('[account]', 'only this account (acc_…)')
    .option('--account <id>', 'the same as ACCOUNT (the older form)')
    .option('--state <state>', `only this state (${ALERT_STATES.join(', ')})`, alertState)
    .option('--source <name>', 'only alerts from this source (api, webhook, alertmanager, heartbeat, test …)')
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print JSON')
    .action((positional: string | undefined, opts, c: Command) =>
      withStore(c, async (store) => {
        const accountId = accountOfList(positional, opts.account);
        if (accountId !== undefined) await requireAccount(store, accountId);
        const records = await store.alerts.list({ accountId, state: opts.state, source: opts.source, limit: opts.limit });
        const alerts = await Promise.all(records.map((a) => alertJson(store, a)));
        printList(opts.json, alerts, (a) => a, line);
      }),
    );
  cmd
    .command('show')
    .description('one alert: key, state, who acknowledged it, and each of its calls')
    .argument(...ACCOUNT)
    .argument(...ALERT)
    .option('--json', 'print JSON')
    .action((first: string, second: string | undefined, opts, c: Command) =>
      withStore(c, async (store) => {
        const { accountId, id } = accountThenId(first, second);
        if (accountId !== null) await requireAccount(store, accountId);
        const a = await ownAlertJson(store, accountId, id);
        if (!a) throw refusal('alert_not_found', id);
        print(opts.json, a, () =>
          [
            line(a),
            a.state_reason ? part('reason', a.state_reason) : '',
            ...a.calls.map((x) => part(x.id, x.phone_number, x.state, `${x.attempts} attempt(s)`, x.bundled_into ? `in ${x.bundled_into}` : null)),
          ]
            .filter(Boolean)
            .join('\n'),
        );
      }),
    );
  const action = (name: 'ack' | 'resolve', description: string) =>
    cmd
      .command(name)
      .description(description)
      .argument(...ACCOUNT)
      .argument(...ALERT)
      .option('--json', 'print JSON')
      .action((first: string, second: string | undefined, opts, c: Command) =>
        withServices(c, async ({ alerts: actions }, store) => {
          const { accountId, id } = accountThenId(first, second);
          if (accountId !== null) await requireAccount(store, accountId);
          const r: AlertActionResult = name === 'ack' ? await actions.acknowledge(accountId, id, BY) : await actions.resolve(accountId, id, BY);
          if (!r.ok) throw refusal('alert_not_found', id);
          const out = alertActionJson(r.changed, r.cancelledCallIds, await alertJson(store, r.alert));
          print(opts.json, out, () =>
            r.changed
              ? `${id} ${r.alert.state}; ${r.cancelledCallIds.length} waiting call(s) cancelled`
              : `${id} was already ${r.alert.state}; nothing changed`,
          );
        }),
      );
  action('ack', 'acknowledge: its waiting calls are cancelled (never-dialled ones give their credit back)');
  action('resolve', 'resolve: its waiting calls are cancelled (never-dialled ones give their credit back)');
  return cmd;
}
