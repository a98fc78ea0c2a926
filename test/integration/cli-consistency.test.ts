import { spawnSync } from 'node:child_process';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Files the binary embeds with `import … with { type: 'text' }` (config example, panel assets),
// which vite cannot load: stubbed, so the CLI's tree loads in this process. No command run here
// prints them.
vi.mock('../../assets/config.example.toml', () => ({ default: '' }));
vi.mock('../../assets/panel/panel.css', () => ({ default: '' }));
vi.mock('../../assets/panel/panel.js', () => ({ default: '' }));
vi.mock('htmx.org/dist/htmx.min.js', () => ({ default: '' }));
import { buildProgram, runCli } from '../../src/cli';
import { applianceDir, type ApplianceDir } from '../helpers/appliance';
import { BINARY } from '../helpers/paths';

/**
 * The CLI's rules (docs "CLI conventions"), held for every command by walking commander's tree,
 * so a command added later is checked too. Most runs are in-process (runCli, the same entry the
 * binary's main.ts calls, with stdout and stderr captured): a spawn of the binary per command
 * would take a minute; the last block runs the binary itself for the exit codes a shell sees.
 */

/** Resource groups: each of their commands takes ACCOUNT first, but these. */
const RESOURCE_GROUPS = ['account', 'keys', 'credit', 'policy', 'heartbeat', 'schedule', 'maintenance', 'desk', 'calls', 'alerts', 'owner'];
const WITHOUT_ACCOUNT = ['account create', 'account list'];

/** A value each required option can take, so a run gets past commander to the account check. */
const REQUIRED_OPTION_VALUES: Record<string, string> = {
  '--name': 'x',
  '--step': '5321111111',
  '--interval-s': '60',
  '--time-zone': 'UTC',
  '--layers': '[]',
  '--start': '2026-01-01T00:00:00Z',
  '--end': '2026-01-02T00:00:00Z',
  '--url': 'https://example.com/hook',
  '--from': '2026-01-01T00:00:00Z',
  '--to': '2026-01-02T00:00:00Z',
  '--number': '5321111111',
  '--email': 'ops@example.com',
};

const UNKNOWN = 'acc_nosuch';

interface Leaf {
  path: string[];
  cmd: Command;
}

function leaves(cmd: Command, path: string[] = []): Leaf[] {
  return cmd.commands.flatMap((c) => (c.commands.length ? leaves(c, [...path, c.name()]) : [{ path: [...path, c.name()], cmd: c }]));
}

const tree = leaves(await buildProgram());
const takesAccount = (l: Leaf) => l.cmd.registeredArguments[0]?.name() === 'account';

/** The run's arguments past the command: ACCOUNT, a placeholder for each other argument (so the new form, not the older id-only one), each required option. */
function fill(l: Leaf, account: string): string[] {
  const rest = l.cmd.registeredArguments.slice(1).map(() => 'x');
  const options = l.cmd.options
    .filter((o) => o.mandatory)
    .flatMap((o) => {
      const value = REQUIRED_OPTION_VALUES[o.long!];
      if (value === undefined) throw new Error(`${l.path.join(' ')}: no test value for its required option ${o.long} (add it to REQUIRED_OPTION_VALUES)`);
      return [o.long!, value];
    });
  return [...l.path, account, ...rest, ...options];
}

let dir: ApplianceDir;

/** One command in this process; what it printed, and the exit code main.ts would set. */
async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    const status = await runCli(['--config', dir.configPath, ...args]);
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

async function json<T = any>(args: string[]): Promise<T> {
  const r = await run([...args, '--json']);
  if (r.status !== 0) throw new Error(`voice-alert ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

let account: string;

beforeAll(async () => {
  dir = applianceDir();
  account = (await json<{ id: string }>(['account', 'create', '--name', 'NOC', '--plan', 'starter'])).id;
});

describe('every resource command takes ACCOUNT first', () => {
  it('in each resource group, the first argument is the account (but account create and list)', () => {
    const resource = tree.filter((l) => RESOURCE_GROUPS.includes(l.path[0]!) && !WITHOUT_ACCOUNT.includes(l.path.join(' ')));
    expect(resource.length).toBeGreaterThan(35);
    expect(resource.filter((l) => !takesAccount(l)).map((l) => l.path.join(' '))).toEqual([]);
  });

  it('an unknown account is exit 1 with one message, nothing on stdout, for every command that takes one', async () => {
    const wrong: string[] = [];
    for (const l of tree.filter(takesAccount)) {
      const args = fill(l, UNKNOWN);
      const r = await run(args);
      if (r.status !== 1 || r.stdout !== '' || r.stderr !== `voice-alert: Account not found: ${UNKNOWN}\n`) wrong.push(`${args.join(' ')} -> ${r.status} ${JSON.stringify(r.stderr)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('list commands whose account may be left out (calls, alerts) refuse an unknown one, given either way', async () => {
    for (const group of ['calls', 'alerts']) {
      for (const args of [[group, 'list', UNKNOWN], [group, 'list', '--account', UNKNOWN]]) {
        expect(await run(args)).toEqual({ status: 1, stdout: '', stderr: `voice-alert: Account not found: ${UNKNOWN}\n` });
      }
      expect(await json([group, 'list', account])).toEqual([]);
      expect(await json([group, 'list', '--account', account])).toEqual([]);
      expect(await json([group, 'list'])).toEqual([]);
      const twice = await run([group, 'list', account, '--account', 'acc_other']);
      expect([twice.status, twice.stderr]).toEqual([2, `voice-alert: ACCOUNT given twice: ${account} and --account acc_other\n`]);
    }
  });
});

describe('usage errors exit 2 with one line; help exits 0', () => {
  it('an unknown option, on every command', async () => {
    const wrong: string[] = [];
    for (const l of tree) {
      const r = await run([...l.path, '--no-such-option']);
      const hint = `; see voice-alert ${l.path.join(' ')} --help\n`;
      if (r.status !== 2 || r.stdout !== '' || !r.stderr.startsWith('voice-alert: ') || !r.stderr.endsWith(hint) || r.stderr.split('\n').length !== 2) {
        wrong.push(`${l.path.join(' ')} -> ${r.status} ${JSON.stringify(r.stderr)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a missing argument (or required option: commander checks those first), on every command that requires one', async () => {
    const wrong: string[] = [];
    for (const l of tree.filter((l) => l.cmd.registeredArguments.some((a) => a.required))) {
      const r = await run(l.path);
      const what = /^voice-alert: (missing required argument '[\w-]+'|required option '[^']+' not specified); see voice-alert (.*) --help\n$/.exec(r.stderr);
      if (r.status !== 2 || what?.[2] !== l.path.join(' ')) wrong.push(`${l.path.join(' ')} -> ${r.status} ${JSON.stringify(r.stderr)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a missing required option, an extra argument, an unknown command, a bad option value, no subcommand', async () => {
    expect(await run(['heartbeat', 'create', account, '--interval-s', '60'])).toEqual({
      status: 2,
      stdout: '',
      stderr: "voice-alert: required option '--name <name>' not specified; see voice-alert heartbeat create --help\n",
    });
    expect(await run(['policy', 'list', account, 'extra'])).toMatchObject({ status: 2, stderr: expect.stringMatching(/^voice-alert: too many arguments.*; see voice-alert policy list --help\n$/) });
    expect(await run(['policy', 'lst', account])).toMatchObject({ status: 2, stderr: expect.stringMatching(/^voice-alert: unknown command 'lst' \(Did you mean list\?\); see voice-alert policy --help\n$/) });
    expect(await run(['calls', 'list', '--limit', '-3'])).toEqual({ status: 2, stdout: '', stderr: 'voice-alert: --limit must be a whole number >= 0, got "-3"\n' });
    expect(await run(['alerts', 'list', '--state', 'gone'])).toMatchObject({ status: 2, stderr: expect.stringMatching(/^voice-alert: --state must be one of /) });
    const bare = await run(['policy']);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('Usage: voice-alert policy');
  });

  it('--help on every command exits 0 and prints its usage and description on stdout', async () => {
    for (const l of tree) {
      const r = await run([...l.path, '--help']);
      expect([l.path.join(' '), r.status, r.stderr]).toEqual([l.path.join(' '), 0, '']);
      expect(r.stdout).toContain(`Usage: voice-alert ${l.path.join(' ')}`);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(l.cmd.description());
    }
    expect((await run(['--help'])).status).toBe(0);
    expect((await run(['--version'])).status).toBe(0);
  });
});

describe('descriptions', () => {
  it('every command and group has one, and no two siblings share one', async () => {
    const groups = (await buildProgram()).commands;
    const all = [...groups.map((c) => ({ path: [c.name()], cmd: c as Command })), ...tree];
    expect(all.filter((l) => l.cmd.description().trim() === '').map((l) => l.path.join(' '))).toEqual([]);
    for (const group of groups) {
      const descriptions = group.commands.map((c) => c.description());
      expect([group.name(), descriptions.filter((d, i) => descriptions.indexOf(d) !== i)]).toEqual([group.name(), []]);
    }
    expect(tree.find((l) => l.path.join(' ') === 'account enable')!.cmd.description()).toMatch(/^enable /);
  });
});

describe('old forms still work', () => {
  it('maintenance show|delete ID, keys revoke API_KEY; the new forms check the account', async () => {
    const other = (await json<{ id: string }>(['account', 'create', '--name', 'Other', '--plan', 'starter'])).id;
    const w = await json<{ id: string }>(['maintenance', 'create', account, '--start', '2099-01-01T00:00:00Z', '--end', '2099-01-02T00:00:00Z']);
    expect(await json(['maintenance', 'show', w.id])).toMatchObject({ id: w.id });
    expect(await json(['maintenance', 'show', account, w.id])).toMatchObject({ id: w.id });
    expect(await run(['maintenance', 'show', other, w.id])).toEqual({ status: 1, stdout: '', stderr: `voice-alert: Maintenance window not found: ${w.id}\n` });
    expect(await json(['maintenance', 'delete', w.id])).toMatchObject({ id: w.id });
    const w2 = await json<{ id: string }>(['maintenance', 'create', account, '--start', '2099-01-01T00:00:00Z', '--end', '2099-01-02T00:00:00Z']);
    expect(await json(['maintenance', 'delete', account, w2.id])).toMatchObject({ id: w2.id });

    const k1 = await json<{ api_key: string }>(['keys', 'create', account]);
    expect(await json(['keys', 'revoke', k1.api_key])).toEqual({ api_key: k1.api_key, revoked: true });
    const k2 = await json<{ api_key: string }>(['keys', 'create', account]);
    expect(await run(['keys', 'revoke', other, k2.api_key])).toEqual({ status: 1, stdout: '', stderr: `voice-alert: Credentials not found: ${k2.api_key}\n` });
    expect(await json(['keys', 'revoke', account, k2.api_key])).toEqual({ api_key: k2.api_key, revoked: true });
  });
});

describe('one name rule: spaces allowed in policies, heartbeats and schedules', () => {
  it('created, shown, used and deleted by a name with spaces', async () => {
    const layers = JSON.stringify([{ participants: [{ name: 'Ayse', number: '5321111111' }], shift: '7d', start: '2026-11-02T09:00' }]);
    const schedule = await json(['schedule', 'create', account, '--name', 'night shift', '--time-zone', 'UTC', '--layers', layers]);
    expect(schedule).toMatchObject({ name: 'night shift' });
    expect(await json(['schedule', 'oncall', account, 'night shift', '--at', '2026-11-03T12:00:00Z'])).toMatchObject({ name: 'Ayse', number: '5321111111' });
    const policy = await json(['policy', 'create', account, '--name', 'night owls', '--step', '@night shift, 5322222222:60']);
    expect(policy).toMatchObject({ name: 'night owls', steps: [{ numbers: ['5322222222'], schedules: ['night shift'], wait_s: 60 }] });
    const hb = await json(['heartbeat', 'create', account, '--name', 'db backup', '--interval-s', '600', '--policy', 'night owls']);
    expect(hb).toMatchObject({ name: 'db backup' });
    expect(await json(['heartbeat', 'show', account, 'db backup'])).toMatchObject({ name: 'db backup' });
    expect(await json(['policy', 'show', account, 'night owls'])).toMatchObject({ name: 'night owls' });

    // The text lists: one line per item, id first, tab-separated, the name with its spaces one field.
    for (const [group, name] of [['schedule', 'night shift'], ['policy', 'night owls'], ['heartbeat', 'db backup']] as const) {
      const list = await run([group, 'list', account]);
      expect(list.status).toBe(0);
      const lines = list.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.split('\t').slice(0, 2)).toEqual([expect.stringMatching(/^(sch|pol|hb)_/), name]);
    }
    const shown = (await run(['policy', 'show', account, 'night owls'])).stdout.split('\n');
    expect(shown[1]).toBe('  step 1\t@night shift, 5322222222\twait 60 s');

    expect(await json(['heartbeat', 'delete', account, 'db backup'])).toMatchObject({ deleted: true });
    expect(await json(['policy', 'delete', account, 'night owls'])).toMatchObject({ deleted: true });
    expect(await json(['schedule', 'delete', account, 'night shift'])).toMatchObject({ deleted: true });
    // An empty list prints nothing (an unknown account is an error, not an empty list).
    for (const group of ['schedule', 'policy', 'heartbeat', 'maintenance']) expect(await run([group, 'list', account])).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});

describe('the binary', () => {
  it('exits 1 for an unknown account, 2 for a usage error, 0 for --help', () => {
    const cli = (args: string[]) => spawnSync(BINARY, ['--config', dir.configPath, ...args], { encoding: 'utf8' });
    expect(cli(['policy', 'list', UNKNOWN])).toMatchObject({ status: 1, stdout: '', stderr: `voice-alert: Account not found: ${UNKNOWN}\n` });
    expect(cli(['policy', 'list'])).toMatchObject({ status: 2, stdout: '', stderr: "voice-alert: missing required argument 'account'; see voice-alert policy list --help\n" });
    expect(cli(['policy', 'list', '--help'])).toMatchObject({ status: 0, stderr: '' });
  });
});
