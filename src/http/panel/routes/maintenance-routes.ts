import { Elysia } from 'elysia';
import { Temporal } from 'temporal-polyfill';
import { errorBody } from '../../../errors';
import type { WindowResult } from '../../../maintenance';
import type { PanelCtx, PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse, redirect } from '../html';
import { maintenanceWords } from '../i18n/maintenance-words';
import { readTypedDateTime } from '../typed-dates';
import { MaintenancePage, type MaintenancePageProps } from '../views/maintenance-page';

/**
 * A datetime-local value (`2026-11-25T22:00`) read in the time zone the panel shows its dates
 * in, as the ISO instant the service takes; anything else is passed on for the service to refuse.
 */
export function localToInstant(local: string, timeZone: string): string {
  const v = local.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(v)) return v;
  try {
    return Temporal.PlainDateTime.from(v).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).toInstant().toString();
  } catch {
    return v;
  }
}

/** An account's maintenance windows: read → service (src/maintenance) → render. */
export function maintenanceRoutes(env: PanelEnv) {
  const { clock, config } = env.deps;
  const timeZone = config.credit.timezone;
  const service = env.deps.services.maintenance;
  const path = '/panel/a/:accountId/maintenance';
  const render = async (c: PanelCtx, status: number, extra: Partial<MaintenancePageProps> = {}) => {
    const windows = await service.list(c.account.id);
    return htmlResponse(MaintenancePage({ t: c.t, fmt: c.fmt, user: c.user, csrf: c.csrf, account: c.account, windows, now: clock(), timeZone, ...extra }), status);
  };
  const problem = (c: PanelCtx, r: Extract<WindowResult, { ok: false }>) =>
    r.code === 'account_not_found' || r.code === 'maintenance_not_found' ? maintenanceWords(c.t).notFound : errorBody(r.code, r.detail).message;

  return new Elysia({ name: 'panel-maintenance' })
    .get(
      path,
      guarded(env, { account: true }, (c) => {
        const w = maintenanceWords(c.t);
        return render(c, 200, { notice: c.query.ok !== undefined ? w.created : c.query.deleted !== undefined ? w.deleted : undefined });
      }),
    )
    .post(
      path,
      guarded(env, { account: true }, async (c) => {
        const draft = { start: c.form.start ?? '', end: c.form.end ?? '', match: c.form.match ?? '', reason: c.form.reason ?? '' };
        const match = draft.match
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        // Typed as the panel shows dates, or in ISO (docs/panel.md "Typing dates"); a refusal keeps every field as typed.
        const w = maintenanceWords(c.t);
        const start = readTypedDateTime(c.t, w.start, draft.start);
        const end = readTypedDateTime(c.t, w.end, draft.end);
        if (!start.ok || !end.ok) return render(c, 400, { error: [start, end].flatMap((x) => (x.ok ? [] : [x.problem])).join(' '), draft });
        const instant = (x: typeof start & { ok: true }) => ('local' in x ? localToInstant(x.local, timeZone) : x.instant);
        const r = await service.create(c.account.id, { start: instant(start), end: instant(end), reason: draft.reason, match });
        return r.ok ? redirect(`/panel/a/${c.account.id}/maintenance?ok`) : render(c, 400, { error: problem(c, r), draft });
      }),
    )
    .post(
      `${path}/:windowId/delete`,
      guarded(env, { account: true }, async (c) => {
        const r = await service.remove(c.account.id, c.params.windowId ?? '');
        return r.ok ? redirect(`/panel/a/${c.account.id}/maintenance?deleted`) : render(c, 404, { error: problem(c, r) });
      }),
    );
}
