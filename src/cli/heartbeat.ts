import { commandBaseUrl } from '../config';
import { Command } from 'commander';
import type { HeartbeatService } from '../heartbeats';
import { heartbeatChangeJson, heartbeatJson, heartbeatState, iso, newHeartbeatJson } from '../outward';
import type { Heartbeat } from '../store';
import { positiveInt, print, withServices, withStore } from './context';
import { refusal, requireAccount } from './refusal';
import { printList, row } from './text';

type Problem = Exclude<Awaited<ReturnType<HeartbeatService['create']>>, { ok: true }>;

/** The catalogue's words; `given` is what was typed (the account, the heartbeat, --policy). */
function fail(r: Problem, given: { accountId: string; heartbeat?: string; policy?: string }): never {
  if ('problem' in r) throw refusal(r.code, r.problem);
  const detail = { account_not_found: given.accountId, heartbeat_not_found: given.heartbeat, heartbeat_name_taken: given.heartbeat, unknown_policy: given.policy }[r.code];
  throw refusal(r.code, detail);
}

const human = (h: Heartbeat) => row(h.id, h.name, heartbeatState(h), `every ${h.intervalS} s (+${h.graceS} s)`, `last ping ${iso(h.lastPingAt) ?? 'never'}`);

/** `heartbeat`: dead man's switches of an account (docs/on-call.md "Heartbeats"). */
export function heartbeatCommand(): Command {
  const cmd = new Command('heartbeat').description("dead man's switches: a call when a ping does not come in time");
  cmd
    .command('create')
    .description('create a heartbeat; prints its ping URL, shown only now')
    .argument('<account>', 'account id (acc_…)')
    .requiredOption('--name <name>', 'its name, unique in the account; letters, digits, spaces, . _ -')
    .requiredOption('--interval-s <n>', 'a ping is expected at least this often (seconds, >= 1)', positiveInt('--interval-s'))
    .option('--grace-s <n>', 'extra seconds before it is late (default 60)', positiveInt('--grace-s'))
    .option('--policy <name>', 'call under this escalation policy')
    .option('--to <numbers>', 'call these numbers (comma-separated)')
    .option('--message <text>', 'what is said (default: "Heartbeat <name> missed. Last signal <n> minutes ago." in panel.language)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withServices(c, async ({ heartbeats }, store, config) => {
        await requireAccount(store, accountId);
        const to = typeof opts.to === 'string' ? opts.to.split(',').map((n: string) => n.trim()).filter(Boolean) : [];
        const r = await heartbeats.create(accountId, {
          name: opts.name,
          interval_s: opts.intervalS,
          grace_s: opts.graceS,
          policy: opts.policy ?? null,
          to,
          message: opts.message ?? null,
        });
        if (!r.ok) fail(r, { accountId, heartbeat: opts.name, policy: opts.policy });
        // ping_url stays the path the contract names; ping_full_url and the text are absolute, usable as printed.
        const full = commandBaseUrl(config) + r.pingUrl;
        print(opts.json, newHeartbeatJson(r.heartbeat, r.pingUrl, full), () => `${human(r.heartbeat)}\nping URL (shown only now): ${full}`);
      }),
    );
  cmd
    .command('list')
    .description("the account's heartbeats with their state and last ping, one line each")
    .argument('<account>', 'account id (acc_…)')
    .option('--json', 'print JSON')
    .action((accountId: string, opts, c: Command) =>
      withStore(c, async (store) => {
        await requireAccount(store, accountId);
        printList(opts.json, await store.heartbeats.list(accountId), heartbeatJson, human);
      }),
    );
  cmd
    .command('show')
    .description('one heartbeat with its state and last ping')
    .argument('<account>', 'account id (acc_…)')
    .argument('<heartbeat>', 'heartbeat id (hb_…) or name')
    .option('--json', 'print JSON')
    .action((accountId: string, idOrName: string, opts, c: Command) =>
      withStore(c, async (store) => {
        await requireAccount(store, accountId);
        const h = await store.heartbeats.find(accountId, idOrName);
        if (!h) throw refusal('heartbeat_not_found', idOrName);
        print(opts.json, heartbeatJson(h), () => human(h));
      }),
    );
  const act = (name: 'pause' | 'resume' | 'delete', description: string) =>
    cmd
      .command(name)
      .description(description)
      .argument('<account>', 'account id (acc_…)')
      .argument('<heartbeat>', 'heartbeat id (hb_…) or name')
      .option('--json', 'print JSON')
      .action((accountId: string, idOrName: string, opts, c: Command) =>
        withServices(c, async ({ heartbeats: s }, store) => {
          await requireAccount(store, accountId);
          const r = await (name === 'pause' ? s.pause : name === 'resume' ? s.resume : s.remove)(accountId, idOrName);
          if (!r.ok) fail(r, { accountId, heartbeat: idOrName });
          print(opts.json, heartbeatChangeJson(r.heartbeat, r.changed, name === 'delete'), () => (name === 'delete' ? `deleted ${r.heartbeat.name}` : human(r.heartbeat)));
        }),
      );
  act('pause', 'stop watching it: a paused heartbeat never fires');
  act('resume', 'watch it again: an up heartbeat gets a full interval + grace from now');
  act('delete', 'delete a heartbeat; an alert it raised that is still open is resolved');
  return cmd;
}
