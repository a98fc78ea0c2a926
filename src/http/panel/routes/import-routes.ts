import { Elysia } from 'elysia';
import { IMPORT_SOURCES, sourceApiUrl, type ImportCheck, type ImportOutcome, type ImportPlan, type ImportSource } from '../../../importers';
import { isAdmin } from '../../../panel';
import type { PanelCtx, PanelEnv } from '../env';
import { baseUrlFor } from '../examples';
import { guarded, type RouteInput } from '../guard';
import { htmlResponse, redirect } from '../html';
import { fill } from '../i18n';
import { importWords } from '../i18n/import-words';
import { ImportPage, type ImportChoices, type ImportPageProps } from '../views/import-page';

/**
 * Import from Opsgenie or PagerDuty (docs/panel.md "Import"): the page shows each source's last
 * applied plan and check, and runs the CLI's own import (the registry's `imports`,
 * src/importers/run.ts) from a form:
 *
 *   Plan   → the plan on the page, nothing written, with an Apply form under it;
 *   Apply  → written and recorded, then back to the page (303), which shows the run;
 *   Check  → compared and recorded, then back to the page, which shows the result.
 *
 * The key arrives in the form of one POST, goes to the source for that run and is dropped: it
 * is never rendered (the password fields have no value; Apply asks for it again rather than
 * carrying it in a hidden field), never stored and never logged (the action log writes the
 * path and status only). Another API URL than the vendor's hosts is an administrator's choice:
 * an owner could otherwise make the appliance fetch any address on its network.
 */
export function importRoutes(env: PanelEnv) {
  const { config } = env.deps;
  const path = '/panel/a/:accountId/import';
  const render = async (c: PanelCtx, status: number, extra: Partial<ImportPageProps> = {}) => {
    const runs = (await env.services.panelReads.importRuns(c.account.id)).map((r) => ({
      source: r.source,
      appliedAt: r.appliedAt,
      plan: parsed<ImportPlan>(r.plan),
      checkedAt: r.checkedAt,
      check: parsed<ImportCheck>(r.check),
    }));
    return htmlResponse(ImportPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, runs, canSetApiUrl: isAdmin(c.user), ...extra }), status);
  };

  const run = guarded(env, { account: true }, async (c) => {
    const w = importWords(c.t);
    const choices: ImportChoices = { source: c.form.source ?? '', region: c.form.region === 'eu' ? 'eu' : 'us', apiUrl: (c.form.api_url ?? '').trim() };
    const refuse = (status: number, error: string) => render(c, status, { choices, error });
    const step = c.form.do === 'apply' ? 'apply' : c.form.do === 'check' ? 'check' : 'plan';
    if (!(IMPORT_SOURCES as readonly string[]).includes(choices.source)) return refuse(400, w.badSource);
    const source = choices.source as ImportSource;
    if (choices.apiUrl && !isAdmin(c.user)) return refuse(403, w.apiUrlAdminOnly);
    const apiUrl = sourceApiUrl(source, { region: choices.region, ...(choices.apiUrl ? { apiUrl: choices.apiUrl } : {}) });
    if (apiUrl === null) return refuse(400, w.badApiUrl);
    // An empty key is the service's refusal (no_key), as for the CLI: 400 below.
    const r = await env.services.imports.run({
      source,
      account: c.account.id,
      key: c.form.key ?? '',
      apiUrl,
      applianceUrl: baseUrlFor(c.request, config.panel.public_url, config.http.trust_proxy),
      apply: step === 'apply',
      check: step === 'check',
    });
    if (!r.ok) return refuse(statusOf(r), problemOf(w, r));
    if (step === 'plan') return render(c, 200, { choices, planned: r.plan });
    return redirect(`/panel/a/${c.account.id}/import?${step === 'apply' ? 'applied' : 'checked'}=${source}`);
  });

  return new Elysia({ name: 'panel-import' })
    .get(
      path,
      guarded(env, { account: true }, (c) => {
        const w = importWords(c.t);
        return render(c, 200, { notice: c.query.applied !== undefined ? w.appliedNotice : c.query.checked !== undefined ? w.checked : undefined });
      }),
    )
    .post(path, (input: RouteInput) => {
      // Bun closes a connection idle for its idleTimeout (10 s on plain HTTP, 30 s on HTTPS),
      // a request still being answered included; an import reads a whole team from the source
      // for longer than that. Bun's longest (255 s), still bounded: it stays on the connection.
      (input.server as { timeout?(request: Request, seconds: number): void } | null | undefined)?.timeout?.(input.request, IMPORT_REQUEST_S);
      return run(input);
    });
}

const IMPORT_REQUEST_S = 255;

type Failure = Extract<ImportOutcome, { ok: false }>;

/** The source's refusal or absence is a bad gateway (the page says whose words); a service's refusal a conflict. */
const statusOf = (r: Failure) => (r.code === 'source_failed' ? 502 : r.code === 'import_refused' ? 409 : 400);

function problemOf(w: ReturnType<typeof importWords>, r: Failure): string {
  if (r.code === 'no_key') return w.noKey;
  if (r.code === 'import_refused') return fill(w.refused, { why: r.message });
  return fill(r.applied ? w.sourceFailedAfterApply : w.sourceFailed, { why: r.message });
}

/** The JSON `voice-alert import … --json` printed; a record that does not parse shows as unreadable, never an error page. */
function parsed<T>(json: string | null): T | null | 'unreadable' {
  if (json === null) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return 'unreadable';
  }
}
