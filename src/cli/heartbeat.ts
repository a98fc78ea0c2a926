import { Command } from 'commander';
import type { HeartbeatService } from '../heartbeats';
import { heartbeatChangeJson, heartbeatJson, heartbeatState, iso, newHeartbeatJson } from '../outward';
import type { Heartbeat } from '../store';
import { CliError, positiveInt, print, withServices, withStore } from './context';

type Problem = Exclude<Awaited<ReturnType<HeartbeatService['create']>>, { ok: true }>;

const WHY: Record<Problem['code'], string> = {
  invalid_heartbeat: 'invalid heartbeat',
  heartbeat_name_taken: 'a heartbeat of that name exists in this account',
  heartbeat_not_found: 'no such heartbeat in this account',
  account_not_found: 'no such account',
  unknown_policy: 'no such policy in this account',
};

function fail(r: Problem): never {
  throw new CliError('problem' in r ? `${WHY[r.code]}: ${r.problem}` : WHY[r.code]);
}

const human = (h: Heartbeat) =>
  `${h.id}  ${h.name}  ${heartbeatState(h)}  every ${h.intervalS} s (+${h.graceS} s)  last ping ${iso(h.lastPingAt) ?? 'never'}`;

/** `heartbeat`: dead man's switches of an account (README "Heartbeats"). */
export function heartbeatCommand(): Command {
  const cmd = new Command('heartbeat').description("dead man's switches: a call when a ping does not come in time");
  cmd
    .command('create <account-id>')
    .description('create a heartbeat; prints its ping URL, shown only now')
    .requiredOption('--name <name>', 'its name, unique in the account')
    .requiredOption('--interval-s <n>', 'a ping is expected at least this often (seconds, >= 1)', positiveInt('--interval-s'))
    .option('--grace-s <n>', 'extra seconds before it is late (default 60)', positiveInt('--grace-s'))
    .option('--policy <name>', 'call under this escalation policy')
    .option('--to <numbers>', 'call these numbers (comma-separated)')
    .option('--message <text>', 'what is said (default: "Heartbeat <name> missed. Last signal <n> minutes ago." in panel.language)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ heartbeats }) => {
        const to = typeof opts.to === 'string' ? opts.to.split(',').map((n: string) => n.trim()).filter(Boolean) : [];
        const r = await heartbeats.create(accountId, {
          name: opts.name,
          interval_s: opts.intervalS,
          grace_s: opts.graceS,
          policy: opts.policy ?? null,
          to,
          message: opts.message ?? null,
        });
        if (!r.ok) fail(r);
        print(opts.json, newHeartbeatJson(r.heartbeat, r.pingUrl), () => `${human(r.heartbeat)}\nping URL (shown only now): ${r.pingUrl}`);
      }),
    );
  cmd
    .command('list <account-id>')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store) => {
        const all = await store.heartbeats.list(accountId);
        print(opts.json, all.map(heartbeatJson), () => (all.length ? all.map(human).join('\n') : 'no heartbeats'));
      }),
    );
  cmd
    .command('show <account-id> <heartbeat>')
    .description('by id or name')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store) => {
        const h = await store.heartbeats.find(accountId, idOrName);
        if (!h) throw new CliError(WHY.heartbeat_not_found);
        print(opts.json, heartbeatJson(h), () => human(h));
      }),
    );
  const act = (name: 'pause' | 'resume' | 'delete', description: string) =>
    cmd
      .command(`${name} <account-id> <heartbeat>`)
      .description(description)
      .option('--json', 'print JSON')
      .action((accountId: string, idOrName: string, opts, c: Command) =>
        withServices(c, async ({ heartbeats: s }) => {
          const r = await (name === 'pause' ? s.pause : name === 'resume' ? s.resume : s.remove)(accountId, idOrName);
          if (!r.ok) fail(r);
          print(opts.json, heartbeatChangeJson(r.heartbeat, r.changed, name === 'delete'), () => (name === 'delete' ? `deleted ${r.heartbeat.name}` : human(r.heartbeat)));
        }),
      );
  act('pause', 'stop watching it: a paused heartbeat never fires');
  act('resume', 'watch it again: an up heartbeat gets a full interval + grace from now');
  act('delete', 'by id or name; an alert it raised that is still open is resolved');
  return cmd;
}
