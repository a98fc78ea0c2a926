import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Command } from 'commander';
import { systemClock } from '../clock';
import type { Config } from '../config';
import {
  OPSGENIE_US,
  PAGERDUTY_API,
  SourceError,
  applyPlan,
  CHECK_DAYS,
  checkImport,
  type CheckDeps,
  ImportRefused,
  opsgenieSource,
  pagerDutySource,
  planOpsgenie,
  planPagerDuty,
  readOpsgenie,
  readPagerDuty,
  type ImportCheck,
  type ImportPlan,
  type PlanContext,
} from '../importers';
import { parseInstant } from '../schedules';
import type { Store } from '../store';
import { CliError, print, withServices } from './context';
import { requireAccount, UsageError } from './refusal';

/**
 * `import opsgenie|pagerduty ACCOUNT` (docs/integrations.md "Moving from Opsgenie or PagerDuty"):
 * reads the team from the source's REST API and prints the plan, each object with its action.
 * The key is never an argument (it would sit in the shell's history and the process list):
 * OPSGENIE_API_KEY / PAGERDUTY_TOKEN, or a file. The plan's actions are what an apply would do
 * now (src/importers/apply.ts runs and rolls back); `--apply` writes it, all or nothing.
 */
export function importCommand(): Command {
  const cmd = new Command('import').description('move a team from Opsgenie or PagerDuty: the plan of what it becomes here');
  const common = (c: Command, urlDefault: string) =>
    c
      .argument('<account>', 'account id (acc_…) the team is imported into')
      .option('--api-url <url>', `the source's API (default ${urlDefault})`)
      .option('--appliance-url <url>', "this appliance's URL as the tools will reach it, for the integrations' list (default http://<hostname>:<http port>)")
      .option('--apply', 'write the plan in one transaction (all or nothing); again later: updates what it imported')
      .option('--check', "after --apply: the source's own on-call timeline against ours, minute by minute, 14 days; exit 1 on any difference")
      .option('--from <instant>', '--check from this ISO 8601 instant (default now)')
      .option('--json', 'print JSON');
  common(cmd.command('opsgenie').description("Opsgenie's users, schedules, escalations, heartbeats, maintenance and integrations (US or EU host)"), `${OPSGENIE_US}; EU https://api.eu.opsgenie.com`)
    .option('--api-key-file <file>', 'a file holding the API key (else $OPSGENIE_API_KEY)')
    .action((accountId: string, opts, c: Command) =>
      run(c, accountId, opts, async (ctx) => {
        const apiKey = secret(opts.apiKeyFile, 'OPSGENIE_API_KEY', '--api-key-file');
        const src = opsgenieSource({ apiKey, baseUrl: opts.apiUrl ?? OPSGENIE_US });
        // Opsgenie's schedule timeline, one per source schedule, each period with its rotation.
        const timelines = new Map<string, Awaited<ReturnType<typeof src.timeline>>>();
        const theirs: Theirs = async (s, from) => {
          const id = s.source_id.split('/')[0]!;
          if (!timelines.has(id)) timelines.set(id, await src.timeline(id, new Date(from).toISOString(), CHECK_DAYS));
          const rotations = new Set(s.layers.map((l) => l.source));
          return timelines
            .get(id)!
            .filter((p) => rotations.has(p.rotationId) && p.recipient.type === 'user')
            .map((p) => ({ start: Date.parse(p.startDate), end: Date.parse(p.endDate), userId: p.recipient.id ?? '', label: p.recipient.name ?? p.recipient.id ?? '?' }));
        };
        return { plan: planOpsgenie(await readOpsgenie(src), ctx), theirs };
      }),
    );
  common(cmd.command('pagerduty').description("PagerDuty's users, schedules, escalation policies and services' integrations"), PAGERDUTY_API)
    .option('--token-file <file>', 'a file holding the REST API token (else $PAGERDUTY_TOKEN)')
    .action((accountId: string, opts, c: Command) =>
      run(c, accountId, opts, async (ctx) => {
        const token = secret(opts.tokenFile, 'PAGERDUTY_TOKEN', '--token-file');
        const src = pagerDutySource({ token, baseUrl: opts.apiUrl ?? PAGERDUTY_API });
        // PagerDuty's final schedule (every layer and override rendered) over the range.
        const theirs: Theirs = async (s, from, to) => {
          const entries = (await src.schedule(s.source_id, new Date(from).toISOString(), new Date(to).toISOString())).final_schedule?.rendered_schedule_entries ?? [];
          return entries.filter((e) => e.user).map((e) => ({ start: Date.parse(e.start), end: Date.parse(e.end), userId: e.user!.id, label: e.user!.summary ?? e.user!.id }));
        };
        return { plan: planPagerDuty(await readPagerDuty(src, ctx.now), ctx), theirs };
      }),
    );
  return cmd;
}

interface Options {
  apply?: boolean;
  check?: boolean;
  from?: string;
  json?: boolean;
  applianceUrl?: string;
}

type Theirs = CheckDeps['theirs'];

async function run(c: Command, accountId: string, opts: Options, read: (ctx: PlanContext) => Promise<{ plan: ImportPlan; theirs: Theirs }>): Promise<void> {
  const from = opts.from === undefined ? null : parseInstant(opts.from);
  if (opts.from !== undefined && from === null) throw new UsageError(`--from must be an ISO 8601 instant with a zone, got "${opts.from}"`);
  await withServices(c, async (services, store, config) => {
    await requireAccount(store, accountId);
    const ctx: PlanContext = { account: accountId, numberForms: config.numbers.accept, now: systemClock(), applianceUrl: applianceUrlOf(opts.applianceUrl, config) };
    let p: ImportPlan;
    let theirs: Theirs;
    try {
      ({ plan: p, theirs } = await read(ctx));
    } catch (e) {
      if (e instanceof SourceError) throw new CliError(e.message, 1);
      throw e;
    }
    let result: ImportPlan;
    try {
      result = await applyPlan(p, { store, clock: systemClock, config }, !!opts.apply);
    } catch (e) {
      if (e instanceof ImportRefused) throw new CliError(e.message, 1);
      throw e;
    }
    // The panel shows the last applied plan (docs/panel.md "Import"); recorded once it committed.
    if (opts.apply) await store.transaction((tx) => tx.importRuns.recordApplied(accountId, result.source, JSON.stringify(result), systemClock()));
    if (opts.check) {
      try {
        await check(store, services.schedules, result, from ?? ctx.now, theirs, !!opts.json);
      } catch (e) {
        if (e instanceof SourceError) throw new CliError(e.message, 1);
        throw e;
      }
      return;
    }
    print(!!opts.json, result, () => human(result, !!opts.apply));
  });
}

/** `--check`: each imported schedule against the source's timeline; exit 1 on any difference. */
async function check(store: Store, ours: CheckDeps['schedules'], plan: ImportPlan, from: number, theirs: Theirs, json: boolean): Promise<void> {
  const schedules = await checkImport(plan, from, { store, clock: systemClock, schedules: ours, theirs });
  const to = new Date(from + CHECK_DAYS * 86_400_000).toISOString();
  const source = plan.source === 'opsgenie' ? 'Opsgenie' : 'PagerDuty';
  const result: ImportCheck = { source: plan.source, account: plan.account, from: new Date(from).toISOString(), to, schedules };
  // The panel shows the last check too, agreeing or not (docs/panel.md "Import").
  await store.transaction((tx) => tx.importRuns.recordCheck(plan.account, plan.source, JSON.stringify(result), systemClock()));
  print(json, result, () =>
    [
      `${source}'s timeline against ours, ${new Date(from).toISOString()} to ${to}, minute by minute:`,
      ...schedules.flatMap((s) =>
        s.why
          ? [`${s.schedule}: ${s.why}`]
          : s.disagreements.length === 0
            ? [`${s.schedule}: agrees`]
            : [`${s.schedule}: ${s.disagreements.length} disagreement(s)`, ...s.disagreements.map((d) => `  ${d.from} to ${d.to}: theirs ${d.theirs ?? 'nobody'}, ours ${d.ours ?? 'nobody'}`)],
      ),
    ].join('\n'),
  );
  const n = schedules.reduce((k, s) => k + s.disagreements.length + (s.why ? 1 : 0), 0);
  if (n > 0) throw new CliError(`${n} disagreement(s) with ${source}'s timeline (above)`, 1);
}

/** The key from its file (trimmed), else the environment; neither is a usage error. */
function secret(file: string | undefined, env: string, flag: string): string {
  const value = file !== undefined ? readFileSync(file, 'utf8').trim() : (process.env[env] ?? '').trim();
  if (!value) throw new UsageError(`no key: set ${env} or give ${flag} FILE (never the key itself as an argument)`);
  return value;
}

function applianceUrlOf(given: string | undefined, config: Config): string {
  if (given) return given.replace(/\/+$/, '');
  const port = config.http.listen.slice(config.http.listen.lastIndexOf(':') + 1);
  return `${config.http.tls === 'off' && !config.http.tls_cert_file ? 'http' : 'https'}://${hostname()}:${port}`;
}

/** One line an object: its action, kind and name (and what it belongs to), then why for a skip. */
function human(p: ImportPlan, applied: boolean): string {
  const lines = p.objects.map((o) => {
    const of = 'of' in o ? ` (of ${o.of})` : '';
    const why = o.why ? `: ${o.why}` : '';
    const notes = o.notes?.length ? ` [${o.notes.join('; ')}]` : '';
    return `${o.action.padEnd(9)} ${o.kind.padEnd(9)} ${o.name}${of}${why}${notes}`;
  });
  const integrations = p.integrations.map((i) => `  ${i.name} (${i.type}): ${i.url ?? `not taken: ${i.why}`}`);
  return [...lines, '', `integrations (send to, with ${p.integrations[0]?.key ?? "the account's webhook key"}):`, ...integrations, '', applied ? 'written (each object remembers its source id: --apply again updates them)' : 'nothing was written (--apply writes it)'].join('\n');
}
