import { Elysia } from 'elysia';
import { COVERAGE_DAYS, MAX_COVERAGE_DAYS, coverageDays } from '../../../schedules';
import type { PanelEnv } from '../env';
import { guarded } from '../guard';
import { htmlResponse } from '../html';
import { CoveragePage } from '../views/coverage-page';

/**
 * An account's coverage (docs/on-call.md "Coverage"): read → schedules service → render.
 * `?days=N` (1–90, default 14); a value it cannot take shows the default.
 */
export function coverageRoutes(env: PanelEnv) {
  const { schedules } = env.services;
  return new Elysia({ name: 'panel-coverage' }).get(
    '/panel/a/:accountId/coverage',
    guarded(env, { account: true }, async (c) => {
      const days = (c.query.days !== undefined ? coverageDays(c.query.days) : null) ?? COVERAGE_DAYS;
      const coverage = await schedules.coverage(c.account.id, days);
      return htmlResponse(CoveragePage({ t: c.t, user: c.user, csrf: c.csrf, account: c.account, days, maxDays: MAX_COVERAGE_DAYS, coverage }));
    }),
  );
}
