import { Elysia } from 'elysia';
import type { ImportCheck, ImportPlan } from '../../../importers';
import type { PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { ImportPage } from '../views/import-page';

/** What was imported into the account (docs/panel.md "Import"): read → render, nothing written. */
export function importRoutes(env: PanelEnv) {
  return new Elysia({ name: 'panel-import' }).get(
    '/panel/a/:accountId/import',
    guarded(env, { account: true }, async (c) => {
      const runs = (await env.services.panelReads.importRuns(c.account.id)).map((r) => ({
        source: r.source,
        appliedAt: r.appliedAt,
        plan: parsed<ImportPlan>(r.plan),
        checkedAt: r.checkedAt,
        check: parsed<ImportCheck>(r.check),
      }));
      return htmlResponse(ImportPage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, runs }));
    }),
  );
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
