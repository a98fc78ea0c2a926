import { Command } from 'commander';
import type { AlertActionResult } from '../alerts';
import { alertActionJson, alertJson, ownAlertJson, type AlertJson } from '../outward';
import { ALERT_STATES, type AlertState } from '../call-model';
import { CliError, positiveInt, print, withServices, withStore } from './context';

/** Who an action from the command line is recorded as (alerts.acknowledged_by, state_reason). */
const BY = 'cli';

const line = (a: AlertJson) => `${a.id}\t${a.state}\t${a.key ?? '-'}\t${a.calls.length} call(s)\t${a.created_at}\t${a.message}`;

function alertState(v: string): AlertState {
  if (!(ALERT_STATES as readonly string[]).includes(v)) throw new CliError(`--state must be one of ${ALERT_STATES.join(', ')}, got "${v}"`);
  return v as AlertState;
}

/**
 * `voice-alert alerts list|show|ack|resolve`: the administrator's view of every account's
 * alerts. The JSON is the same builder as GET /api/alerts/{id}'s `alert` field; ack and
 * resolve are the same actions as the API and the panel (src/alerts), recorded as by `cli`.
 */
export function alertsCommand(): Command {
  const cmd = new Command('alerts').description('alerts: one per accepted request, with its key, state and calls');
  cmd
    .command('list')
    .description('newest alerts first')
    .option('--account <id>', 'only this account')
    .option('--state <state>', `only this state (${ALERT_STATES.join(', ')})`, alertState)
    .option('--limit <n>', 'at most this many', positiveInt('--limit'), 50)
    .option('--json', 'print JSON')
    .action((opts, c: Command) =>
      withStore(c, async (store) => {
        const records = await store.alerts.list({ accountId: opts.account, state: opts.state, limit: opts.limit });
        const alerts = await Promise.all(records.map((a) => alertJson(store, a)));
        print(opts.json, alerts, () => alerts.map(line).join('\n'));
      }),
    );
  cmd
    .command('show')
    .description('one alert: key, state, who acknowledged it, and each of its calls')
    .argument('<id>', 'alert id (alt_…)')
    .option('--json', 'print JSON')
    .action((id: string, opts, c: Command) =>
      withStore(c, async (store) => {
        const a = await ownAlertJson(store, null, id);
        if (!a) throw new CliError(`no alert ${id}`);
        print(opts.json, a, () =>
          [
            line(a),
            a.state_reason ? `reason: ${a.state_reason}` : '',
            ...a.calls.map((x) => `  ${x.id}\t${x.phone_number}\t${x.state}\t${x.attempts}${x.bundled_into ? `\tin ${x.bundled_into}` : ''}`),
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
      .argument('<id>', 'alert id (alt_…)')
      .option('--json', 'print JSON')
      .action((id: string, opts, c: Command) =>
        withServices(c, async ({ alerts: actions }, store) => {
          const r: AlertActionResult = name === 'ack' ? await actions.acknowledge(null, id, BY) : await actions.resolve(null, id, BY);
          if (!r.ok) throw new CliError(`no alert ${id}`);
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
