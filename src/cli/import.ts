import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Command } from 'commander';
import { commandBaseUrl, type Config } from '../config';
import { OPSGENIE_US, PAGERDUTY_API, disagreementsOf, sourceApiUrl, type ImportCheck, type ImportPlan, type ImportSource } from '../importers';
import { parseInstant } from '../schedules';
import { CliError, print, withServices } from './context';
import { requireAccount, UsageError } from './refusal';

/**
 * `import opsgenie|pagerduty ACCOUNT` (docs/integrations.md "Moving from Opsgenie or PagerDuty"):
 * reads the team from the source's REST API and prints the plan, each object with its action.
 * The key is never an argument (it would sit in the shell's history and the process list):
 * OPSGENIE_API_KEY / PAGERDUTY_TOKEN, or a file. The plan's actions are what an apply would do
 * now (src/importers/apply.ts runs and rolls back); `--apply` writes it, all or nothing. The
 * run itself is src/importers/run.ts, the same the panel's Import page calls.
 */
export function importCommand(): Command {
  const cmd = new Command('import').description('move a team from Opsgenie or PagerDuty: the plan of what it becomes here');
  const common = (c: Command, urlDefault: string) =>
    c
      .argument('<account>', 'account id (acc_…) the team is imported into')
      .option('--api-url <url>', `the source's API (default ${urlDefault})`)
      .option('--appliance-url <url>', "this appliance's URL as the tools will reach it, for the integrations' list (default panel.public_url, else http://<hostname>:<the port serve listens on>)")
      .option('--apply', 'write the plan in one transaction (all or nothing); again later: updates what it imported')
      .option('--check', "after --apply: the source's own on-call timeline against ours, minute by minute, 14 days; exit 1 on any difference")
      .option('--from <instant>', '--check from this ISO 8601 instant (default now)')
      .option('--json', 'print JSON');
  common(cmd.command('opsgenie').description("Opsgenie's users, schedules, escalations, heartbeats, maintenance and integrations (US or EU host)"), `${OPSGENIE_US}; EU https://api.eu.opsgenie.com`)
    .option('--api-key-file <file>', 'a file holding the API key (else $OPSGENIE_API_KEY)')
    .action((accountId: string, opts, c: Command) => run(c, 'opsgenie', accountId, opts, () => secret(opts.apiKeyFile, 'OPSGENIE_API_KEY', '--api-key-file')));
  common(cmd.command('pagerduty').description("PagerDuty's users, schedules, escalation policies and services' integrations"), PAGERDUTY_API)
    .option('--token-file <file>', 'a file holding the REST API token (else $PAGERDUTY_TOKEN)')
    .action((accountId: string, opts, c: Command) => run(c, 'pagerduty', accountId, opts, () => secret(opts.tokenFile, 'PAGERDUTY_TOKEN', '--token-file')));
  return cmd;
}

interface Options {
  apply?: boolean;
  check?: boolean;
  from?: string;
  json?: boolean;
  apiUrl?: string;
  applianceUrl?: string;
}

/** Gathers the choices from the flags and the environment; the import itself is the registry's (src/importers/run.ts), as the panel runs it. */
async function run(c: Command, source: ImportSource, accountId: string, opts: Options, key: () => string): Promise<void> {
  const from = opts.from === undefined ? null : parseInstant(opts.from);
  if (opts.from !== undefined && from === null) throw new UsageError(`--from must be an ISO 8601 instant with a zone, got "${opts.from}"`);
  const apiUrl = sourceApiUrl(source, opts.apiUrl === undefined ? {} : { apiUrl: opts.apiUrl });
  if (apiUrl === null) throw new UsageError(`--api-url must be an http(s) URL, got "${opts.apiUrl}"`);
  await withServices(c, async (services, store, config) => {
    await requireAccount(store, accountId);
    const r = await services.imports.run({
      source,
      account: accountId,
      key: key(),
      apiUrl,
      applianceUrl: applianceUrlOf(opts.applianceUrl, config),
      apply: !!opts.apply,
      check: !!opts.check,
      ...(from === null ? {} : { from }),
    });
    if (!r.ok) throw new CliError(r.message, 1);
    if (r.check) return printCheck(r.check, !!opts.json);
    print(!!opts.json, r.plan, () => human(r.plan, !!opts.apply));
  });
}

/** `--check`: each imported schedule against the source's timeline; exit 1 on any difference. */
function printCheck(result: ImportCheck, json: boolean): void {
  const source = result.source === 'opsgenie' ? 'Opsgenie' : 'PagerDuty';
  print(json, result, () =>
    [
      `${source}'s timeline against ours, ${result.from} to ${result.to}, minute by minute:`,
      ...result.schedules.flatMap((s) =>
        s.why
          ? [`${s.schedule}: ${s.why}`]
          : s.disagreements.length === 0
            ? [`${s.schedule}: agrees`]
            : [`${s.schedule}: ${s.disagreements.length} disagreement(s)`, ...s.disagreements.map((d) => `  ${d.from} to ${d.to}: theirs ${d.theirs ?? 'nobody'}, ours ${d.ours ?? 'nobody'}`)],
      ),
    ].join('\n'),
  );
  const n = disagreementsOf(result);
  if (n > 0) throw new CliError(`${n} disagreement(s) with ${source}'s timeline (above)`, 1);
}

/** The key from its file (trimmed), else the environment; neither is a usage error. */
function secret(file: string | undefined, env: string, flag: string): string {
  const value = file !== undefined ? readFileSync(file, 'utf8').trim() : (process.env[env] ?? '').trim();
  if (!value) throw new UsageError(`no key: set ${env} or give ${flag} FILE (never the key itself as an argument)`);
  return value;
}

/**
 * Where the tools should send their alerts now: `--appliance-url`, else `panel.public_url`, else
 * this machine's name with the port `serve` listens on (config/listen-record.ts): tools run on
 * other machines, so not the loopback address a wildcard listen prints for local use.
 */
function applianceUrlOf(given: string | undefined, config: Config): string {
  if (given) return given.replace(/\/+$/, '');
  if (config.panel.public_url) return commandBaseUrl(config);
  const listened = new URL(commandBaseUrl(config));
  return `${listened.protocol}//${hostname()}:${listened.port || (listened.protocol === 'https:' ? 443 : 80)}`;
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
