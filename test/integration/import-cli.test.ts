import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Files the binary embeds (see cli-consistency.test.ts): stubbed so the CLI loads in this
// process, which also serves the stand-in APIs (a spawned binary's spawnSync would block them).
vi.mock('../../assets/config.example.toml', () => ({ default: '' }));
vi.mock('../../assets/panel/panel.css', () => ({ default: '' }));
vi.mock('../../assets/panel/panel.js', () => ({ default: '' }));
vi.mock('htmx.org/dist/htmx.min.js', () => ({ default: '' }));
import { runCli } from '../../src/cli';
import { recordListening } from '../../src/config';
import { applianceDir, type ApplianceDir } from '../helpers/appliance';
import { OPSGENIE_KEY, startOpsgenieStandIn, type StandIn } from '../helpers/opsgenie-standin';
import { PAGERDUTY_TOKEN, startPagerDutyStandIn, type FinalEntry } from '../helpers/pagerduty-standin';

// docs/integrations.md "Moving from Opsgenie or PagerDuty": `voice-alert import` as an operator
// runs it, against stand-in APIs on 127.0.0.1 reached by --api-url (as the EU host would be).
let dir: ApplianceDir;
let account: string;
let opsgenie: StandIn;
let pagerduty: StandIn;

async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    return { status: await runCli(['--config', dir.configPath, ...args]), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const keyFile = (name: string, key: string) => {
  const f = join(dir.dir, name);
  writeFileSync(f, `${key}\n`);
  return f;
};

beforeAll(async () => {
  delete process.env.OPSGENIE_API_KEY;
  delete process.env.PAGERDUTY_TOKEN;
  dir = applianceDir();
  opsgenie = startOpsgenieStandIn();
  pagerduty = startPagerDutyStandIn();
  const r = await run(['account', 'create', '--name', 'NOC', '--plan', 'starter', '--json']);
  account = JSON.parse(r.stdout).id;
});
afterAll(() => {
  opsgenie.stop();
  pagerduty.stop();
});

describe('voice-alert import opsgenie', () => {
  it('--api-url and --api-key-file: the plan as JSON, the integrations at --appliance-url; nothing written', async () => {
    const r = await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--appliance-url', 'https://alerts.example.com/', '--json']);
    expect(r).toMatchObject({ status: 0, stderr: '' });
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ source: 'opsgenie', account });
    expect(plan.objects.filter((o: any) => o.kind === 'schedule').map((o: any) => [o.name, o.action])).toEqual([
      ['noc', 'create'],
      ['noc-backup', 'create'],
      ['us-only', 'skip'],
    ]);
    expect(plan.integrations.map((i: any) => i.url)).toEqual(['https://alerts.example.com/v2/alerts', 'https://alerts.example.com/v2/alerts']);
    const schedules = await run(['schedule', 'list', account, '--json']);
    expect(JSON.parse(schedules.stdout)).toEqual([]);
  });

  it('without --appliance-url: the integrations at this machine\'s name and the port serve listened on; with panel.public_url, at that', async () => {
    // What `serve --listen 0.0.0.0:18080` records (config/listen-record.ts): tools on other
    // machines are pointed at this one's name, never the loopback address.
    recordListening(join(dir.dir, 'data', 'voice-alert.db'), 'http://0.0.0.0:18080');
    const args = ['--api-url', opsgenie.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--json'];
    const here = JSON.parse((await run(['import', 'opsgenie', account, ...args])).stdout);
    expect(here.integrations.map((i: any) => i.url)).toEqual([`http://${hostname()}:18080/v2/alerts`, `http://${hostname()}:18080/v2/alerts`]);
    const saved = dir;
    dir = applianceDir({ panel: { public_url: 'https://alerts.example.net/' } });
    try {
      const acc = JSON.parse((await run(['account', 'create', '--name', 'NOC', '--plan', 'starter', '--json'])).stdout).id;
      const there = JSON.parse((await run(['import', 'opsgenie', acc, ...args])).stdout);
      expect(there.integrations.map((i: any) => i.url)).toEqual(['https://alerts.example.net/v2/alerts', 'https://alerts.example.net/v2/alerts']);
    } finally {
      dir = saved;
    }
  });

  it('the key from OPSGENIE_API_KEY; a schedule made here by hand with the same name is a skip, never touched', async () => {
    const layers = JSON.stringify([{ participants: [{ name: 'Ece', number: '5329999999' }], shift: '7d', start: '2026-11-02T09:00' }]);
    expect((await run(['schedule', 'create', account, '--name', 'noc', '--time-zone', 'UTC', '--layers', layers])).status).toBe(0);
    process.env.OPSGENIE_API_KEY = OPSGENIE_KEY;
    try {
      const r = await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--json']);
      expect(r.status).toBe(0);
      const noc = JSON.parse(r.stdout).objects.find((o: any) => o.kind === 'schedule' && o.name === 'noc');
      expect(noc).toMatchObject({ action: 'skip', why: 'a schedule named noc already exists here and was not imported: objects made by hand are never touched' });
    } finally {
      delete process.env.OPSGENIE_API_KEY;
      await run(['schedule', 'delete', account, 'noc']);
    }
  });

  it('the plain text: one line an object, its action, kind, name and why', async () => {
    const r = await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY)]);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain('create    schedule  noc');
    expect(lines).toContain('skip      rule      rule 4 (random team dba) (of noc-escalation): random: one member chosen at random cannot be expressed here');
    expect(lines[lines.length - 2]).toBe('nothing was written (--apply writes it)');
  });

  it('--check before any --apply: each schedule is not imported, exit 1; --from must be an instant', async () => {
    const r = await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--check']);
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n').slice(1, 3)).toEqual(['noc: not imported yet: apply the import first (--apply, or Apply in the panel)', 'noc-backup: not imported yet: apply the import first (--apply, or Apply in the panel)']);
    expect(r.stderr).toBe("voice-alert: 2 disagreement(s) with Opsgenie's timeline (above)\n");
    expect(opsgenie.requests.some((q) => q.includes('/timeline'))).toBe(false);
    expect(await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--check', '--from', 'tomorrow'])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'voice-alert: --from must be an ISO 8601 instant with a zone, got "tomorrow"\n',
    });
  });

  it("a key Opsgenie refuses: exit 1 with Opsgenie's words; no key: a usage error", async () => {
    expect(await run(['import', 'opsgenie', account, '--api-url', opsgenie.url, '--api-key-file', keyFile('bad.key', 'nope')])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'voice-alert: Opsgenie answered 401: Could not authenticate (GET /v2/users)\n',
    });
    expect(await run(['import', 'opsgenie', account, '--api-url', opsgenie.url])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'voice-alert: no key: set OPSGENIE_API_KEY or give --api-key-file FILE (never the key itself as an argument)\n',
    });
  });
});

describe('voice-alert import: --api-url', () => {
  it('must be an http(s) URL: a usage error, nothing fetched', async () => {
    expect(await run(['import', 'pagerduty', account, '--api-url', 'file:///etc/passwd', '--token-file', keyFile('pd.token', PAGERDUTY_TOKEN)])).toEqual({
      status: 2,
      stdout: '',
      stderr: 'voice-alert: --api-url must be an http(s) URL, got "file:///etc/passwd"\n',
    });
  });
});

describe('voice-alert import pagerduty', () => {
  it('--token-file: the plan as JSON; a refused token is exit 1 in PagerDuty\'s words', async () => {
    const r = await run(['import', 'pagerduty', account, '--api-url', pagerduty.url, '--token-file', keyFile('pd.token', PAGERDUTY_TOKEN), '--json']);
    expect(r.status).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.objects.filter((o: any) => o.kind === 'policy').map((o: any) => [o.name, o.action, o.rounds])).toEqual([['noc-policy', 'create', 3]]);
    expect(await run(['import', 'pagerduty', account, '--api-url', pagerduty.url, '--token-file', keyFile('bad.token', 'nope')])).toEqual({
      status: 1,
      stdout: '',
      stderr: 'voice-alert: PagerDuty answered 401: Unauthorized (GET /users)\n',
    });
  });
});

describe('voice-alert import opsgenie --apply', () => {
  // An account of its own: the tests above leave theirs as they found it, these write.
  let acc: string;
  const ogArgs = () => ['--api-url', opsgenie.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY)];
  const rows = async () => {
    const out: Record<string, unknown> = {};
    for (const what of ['person', 'schedule', 'policy', 'heartbeat', 'maintenance']) {
      const r = await run([what, 'list', acc, ...(what === 'maintenance' ? ['--all'] : []), '--json']);
      expect(r.status).toBe(0);
      out[what] = JSON.parse(r.stdout);
    }
    return out;
  };
  beforeAll(async () => {
    acc = JSON.parse((await run(['account', 'create', '--name', 'NOC apply', '--plan', 'starter', '--json'])).stdout).id;
  });

  it('a 500 on page 3 of the users: exit 1 and nothing written', async () => {
    const failing = startOpsgenieStandIn({ pageSize: 2, failUsersAtOffset: 4 });
    try {
      const r = await run(['import', 'opsgenie', acc, '--api-url', failing.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--apply']);
      expect(r).toMatchObject({ status: 1, stderr: 'voice-alert: Opsgenie answered 500: Internal Server Error (GET /v2/users)\n' });
      expect(failing.requests.some((q) => q.includes('offset=4'))).toBe(true);
    } finally {
      failing.stop();
    }
    expect(await rows()).toEqual({ person: [], schedule: [], policy: [], heartbeat: [], maintenance: [] });
  });

  it('a hand-made schedule of the same name is a skip; twice: creates, then every object unchanged and the same rows', async () => {
    const layers = JSON.stringify([{ participants: [{ name: 'Ece', number: '5329999999' }], shift: '7d', start: '2026-11-02T09:00' }]);
    expect((await run(['schedule', 'create', acc, '--name', 'noc-backup', '--time-zone', 'UTC', '--layers', layers])).status).toBe(0);
    const handMade = JSON.parse((await run(['schedule', 'list', acc, '--json'])).stdout)[0];

    const first = await run(['import', 'opsgenie', acc, ...ogArgs(), '--apply', '--json']);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    const actions = (r: { stdout: string }) => JSON.parse(r.stdout).objects.filter((o: any) => ['person', 'schedule', 'policy', 'heartbeat', 'window'].includes(o.kind)).map((o: any) => [o.kind, o.name, o.action]);
    expect(actions(first)).toEqual([
      ['person', 'Ayşe Yılmaz', 'create'],
      ['person', 'Bora Kaya', 'create'],
      ['person', 'John Smith', 'create'],
      ['person', 'Cem Demir', 'create'],
      ['person', 'Deniz Ak', 'create'],
      ['schedule', 'noc', 'create'],
      ['schedule', 'noc-backup', 'skip'],
      ['schedule', 'us-only', 'skip'],
      ['policy', 'noc-escalation', 'skip'],
      ['policy', 'empty-team', 'skip'],
      ['heartbeat', 'nightly-backup', 'skip'],
      ['heartbeat', 'orphan', 'create'],
      ['window', 'core switch upgrade', 'create'],
      ['window', 'prometheus only', 'skip'],
      ['window', 'lab', 'skip'],
    ]);
    const backup = JSON.parse(first.stdout).objects.find((o: any) => o.kind === 'schedule' && o.name === 'noc-backup');
    expect(backup.why).toBe('a schedule named noc-backup already exists here and was not imported: objects made by hand are never touched');
    const after1 = await rows();
    expect((after1.schedule as any[]).find((s) => s.name === 'noc-backup')).toEqual(handMade);

    const second = await run(['import', 'opsgenie', acc, ...ogArgs(), '--apply', '--json']);
    expect(second.status).toBe(0);
    expect(actions(second).map(([k, n, a]: string[]) => [k, n, a === 'create' ? 'unchanged' : a])).toEqual(actions(second));
    expect(actions(second).filter(([, , a]: string[]) => a !== 'skip').every(([, , a]: string[]) => a === 'unchanged')).toBe(true);
    expect(await rows()).toEqual(after1);
  });
});

describe('voice-alert import opsgenie --check', () => {
  // One rotation in America/New_York across the end of DST (2026-11-01 02:00 local): a daily
  // handover at 09:00 local is 13:00Z before it and 14:00Z after. The timeline the stand-in
  // serves is written here from that, apart from our schedules' code.
  const from = '2026-10-30T13:00:00Z';
  const simple = [
    {
      id: 's-simple',
      name: 'simple',
      timezone: 'America/New_York',
      enabled: true,
      rotations: [{ id: 'r-daily', name: 'daily', startDate: from, type: 'daily', length: 1, participants: [{ type: 'user', id: 'u-ayse' }, { type: 'user', id: 'u-bora' }] }],
    },
  ];
  const handover = (d: number) => {
    const day = new Date(Date.UTC(2026, 9, 30 + d));
    day.setUTCHours(day < new Date('2026-11-01T00:00:00Z') ? 13 : 14);
    return day.toISOString();
  };
  const rightPeriods = () => Array.from({ length: 15 }, (_, d) => ({ startDate: handover(d), endDate: handover(d + 1), user: d % 2 === 0 ? 'u-ayse' : 'u-bora' }));
  let acc: string;
  let standIn: StandIn;
  let periods: { startDate: string; endDate: string; user: string }[];
  const check = () => run(['import', 'opsgenie', acc, '--api-url', standIn.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--check', '--from', from, '--json']);

  beforeAll(async () => {
    periods = rightPeriods();
    standIn = startOpsgenieStandIn({ schedules: simple, timeline: () => [{ id: 'r-daily', name: 'daily', periods }] });
    acc = JSON.parse((await run(['account', 'create', '--name', 'NOC check', '--plan', 'starter', '--json'])).stdout).id;
    const applied = await run(['import', 'opsgenie', acc, '--api-url', standIn.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--apply', '--json']);
    expect(applied.status).toBe(0);
    expect(JSON.parse(applied.stdout).objects.find((o: any) => o.kind === 'schedule')).toMatchObject({ name: 'simple', action: 'create' });
  });
  afterAll(() => standIn.stop());

  it("agrees with the source's timeline when the import is right: exit 0, no disagreement", async () => {
    const r = await check();
    expect(r).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ source: 'opsgenie', account: acc, from: '2026-10-30T13:00:00.000Z', to: '2026-11-13T13:00:00.000Z', schedules: [{ schedule: 'simple', disagreements: [] }] });
    expect(standIn.requests).toContain('GET /v2/schedules/s-simple/timeline?identifierType=id&interval=14&intervalUnit=days&date=2026-10-30T13%3A00%3A00.000Z');
    // The panel's Import page reads the last applied plan and this check (docs/panel.md "Import").
    const db = dir.database();
    try {
      const [row] = (await db.query('SELECT source, plan, check_json FROM import_runs WHERE account_id = ?').all(acc)) as { source: string; plan: string; check_json: string }[];
      expect(row!.source).toBe('opsgenie');
      expect(JSON.parse(row!.plan).objects.find((o: any) => o.kind === 'schedule')).toMatchObject({ name: 'simple', action: 'create' });
      expect(JSON.parse(row!.check_json)).toEqual(JSON.parse(r.stdout));
    } finally {
      await db.close();
    }
  });

  it('a timeline made to differ: each stretch with its exact minutes, theirs and ours; exit 1', async () => {
    periods = rightPeriods();
    // Day 3 (Bora's, 2026-11-02 from 14:00Z): Cem from 15:00Z to 17:30Z. Day 6 (Ayşe's): nobody for 7 minutes.
    const bora = periods[3]!;
    const ayse = periods[6]!;
    periods.splice(3, 1, { ...bora, endDate: '2026-11-02T15:00:00Z' }, { startDate: '2026-11-02T15:00:00Z', endDate: '2026-11-02T17:30:00Z', user: 'u-cem' }, { ...bora, startDate: '2026-11-02T17:30:00Z' });
    periods.splice(8, 1, { ...ayse, endDate: '2026-11-05T20:00:00Z' }, { ...ayse, startDate: '2026-11-05T20:07:00Z' });
    const r = await check();
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("voice-alert: 2 disagreement(s) with Opsgenie's timeline (above)\n");
    expect(JSON.parse(r.stdout).schedules).toEqual([
      {
        schedule: 'simple',
        disagreements: [
          { from: '2026-11-02T15:00:00.000Z', to: '2026-11-02T17:30:00.000Z', theirs: 'Cem Demir', ours: 'Bora Kaya' },
          { from: '2026-11-05T20:00:00.000Z', to: '2026-11-05T20:07:00.000Z', theirs: null, ours: 'Ayşe Yılmaz' },
        ],
      },
    ]);
    const text = await run(['import', 'opsgenie', acc, '--api-url', standIn.url, '--api-key-file', keyFile('og.key', OPSGENIE_KEY), '--check', '--from', from]);
    expect(text.stdout.split('\n')).toContain('  2026-11-02T15:00:00.000Z to 2026-11-02T17:30:00.000Z: theirs Cem Demir, ours Bora Kaya');
  });
});

describe('voice-alert import pagerduty --apply and --check', () => {
  // noc (America/New_York): Layer 1 weekly Ayşe then Bora, 09:00–18:00 local every day; Layer 2
  // (on top) Bora on Saturdays 10:00–16:00. PagerDuty's final schedule, written here from that
  // apart from our code: 09:00 local is 13:00Z before DST ends (2026-11-01), 14:00Z after.
  const from = '2026-10-26T13:00:00Z';
  const at = (d: number, hour: number) => {
    const day = new Date(Date.UTC(2026, 9, 26 + d));
    day.setUTCHours(hour + (day < new Date('2026-11-01T00:00:00Z') ? 4 : 5));
    return day.toISOString();
  };
  const rightEntries = () =>
    Array.from({ length: 14 }, (_, d) => {
      const who = d < 7 ? 'PAYSE' : 'PBORA';
      if (d === 5) return [{ start: at(d, 9), end: at(d, 10), user: who }, { start: at(d, 10), end: at(d, 16), user: 'PBORA' }, { start: at(d, 16), end: at(d, 18), user: who }];
      return [{ start: at(d, 9), end: at(d, 18), user: who }];
    }).flat();
  let entries: FinalEntry[];
  let acc: string;
  let standIn: StandIn;
  const args = () => ['--api-url', standIn.url, '--token-file', keyFile('pd.token', PAGERDUTY_TOKEN)];

  beforeAll(async () => {
    entries = rightEntries();
    standIn = startPagerDutyStandIn({ finalSchedule: (id) => (id === 'PNOC' ? entries : []) });
    acc = JSON.parse((await run(['account', 'create', '--name', 'PD', '--plan', 'starter', '--json'])).stdout).id;
  });
  afterAll(() => standIn.stop());

  it('--apply twice: created, then unchanged, the same rows', async () => {
    const first = await run(['import', 'pagerduty', acc, ...args(), '--apply', '--json']);
    expect(first).toMatchObject({ status: 0, stderr: '' });
    const kinds = (r: { stdout: string }) => JSON.parse(r.stdout).objects.filter((o: any) => ['person', 'schedule', 'policy'].includes(o.kind)).map((o: any) => [o.kind, o.name, o.action]);
    expect(kinds(first)).toEqual([
      ['person', 'Ayşe Yılmaz', 'create'],
      ['person', 'Bora Kaya', 'create'],
      ['person', 'John Smith', 'create'],
      ['schedule', 'noc', 'create'],
      ['schedule', 'us-only', 'skip'],
      ['policy', 'noc-policy', 'create'],
    ]);
    // One command at a time: each captures stdout.
    const rows = async () => {
      const out = [];
      for (const w of ['person', 'schedule', 'policy']) out.push(JSON.parse((await run([w, 'list', acc, '--json'])).stdout));
      return out;
    };
    const after1 = await rows();
    const second = await run(['import', 'pagerduty', acc, ...args(), '--apply', '--json']);
    expect(kinds(second).map((k: string[]) => k[2])).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged', 'skip', 'unchanged']);
    expect(await rows()).toEqual(after1);
  });

  it("--check agrees with PagerDuty's final schedule, then reports the minutes it was made to differ", async () => {
    const check = () => run(['import', 'pagerduty', acc, ...args(), '--check', '--from', from, '--json']);
    const ok = await check();
    expect(JSON.parse(ok.stdout).schedules).toEqual([{ schedule: 'noc', disagreements: [] }]);
    expect(ok.status).toBe(0);
    expect(standIn.requests).toContain('GET /schedules/PNOC?since=2026-10-26T13:00:00.000Z&until=2026-11-09T13:00:00.000Z');

    // Saturday 2026-11-07 (Bora's week): Ayşe 12:00–12:45 local (EST) instead.
    entries = rightEntries().flatMap((e) =>
      e.start === at(12, 9) ? [{ ...e, end: '2026-11-07T17:00:00.000Z' }, { start: '2026-11-07T17:00:00.000Z', end: '2026-11-07T17:45:00.000Z', user: 'PAYSE' }, { ...e, start: '2026-11-07T17:45:00.000Z' }] : [e],
    );
    const r = await check();
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).schedules).toEqual([{ schedule: 'noc', disagreements: [{ from: '2026-11-07T17:00:00.000Z', to: '2026-11-07T17:45:00.000Z', theirs: 'Ayşe Yılmaz', ours: 'Bora Kaya' }] }]);
  });
});
