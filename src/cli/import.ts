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
  ImportRefused,
  opsgenieSource,
  pagerDutySource,
  planOpsgenie,
  planPagerDuty,
  readOpsgenie,
  readPagerDuty,
  type ImportPlan,
  type PlanContext,
} from '../importers';
import { CliError, print, withStore } from './context';
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
      .option('--json', 'print JSON');
  common(cmd.command('opsgenie').description("Opsgenie's users, schedules, escalations, heartbeats, maintenance and integrations (US or EU host)"), `${OPSGENIE_US}; EU https://api.eu.opsgenie.com`)
    .option('--api-key-file <file>', 'a file holding the API key (else $OPSGENIE_API_KEY)')
    .action((accountId: string, opts, c: Command) =>
      run(c, accountId, opts, async (ctx) => {
        const apiKey = secret(opts.apiKeyFile, 'OPSGENIE_API_KEY', '--api-key-file');
        const src = opsgenieSource({ apiKey, baseUrl: opts.apiUrl ?? OPSGENIE_US });
        return planOpsgenie(await readOpsgenie(src), ctx);
      }),
    );
  common(cmd.command('pagerduty').description("PagerDuty's users, schedules, escalation policies and services' integrations"), PAGERDUTY_API)
    .option('--token-file <file>', 'a file holding the REST API token (else $PAGERDUTY_TOKEN)')
    .action((accountId: string, opts, c: Command) =>
      run(c, accountId, opts, async (ctx) => {
        const token = secret(opts.tokenFile, 'PAGERDUTY_TOKEN', '--token-file');
        const src = pagerDutySource({ token, baseUrl: opts.apiUrl ?? PAGERDUTY_API });
        return planPagerDuty(await readPagerDuty(src, ctx.now), ctx);
      }),
    );
  return cmd;
}

interface Options {
  apply?: boolean;
  json?: boolean;
  applianceUrl?: string;
}

async function run(c: Command, accountId: string, opts: Options, plan: (ctx: PlanContext) => Promise<ImportPlan>): Promise<void> {
  await withStore(c, async (store, config) => {
    await requireAccount(store, accountId);
    const ctx: PlanContext = { account: accountId, numberForms: config.numbers.accept, now: systemClock(), applianceUrl: applianceUrlOf(opts.applianceUrl, config) };
    let p: ImportPlan;
    try {
      p = await plan(ctx);
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
    print(!!opts.json, result, () => human(result, !!opts.apply));
  });
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
