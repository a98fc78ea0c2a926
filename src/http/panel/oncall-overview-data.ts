import type { Account } from '../../store';
import type { PanelEnv } from './env';
import type { OncallOverviewData } from './views/oncall-overview';

/** How many open alerts the overview lists (the alerts page has them all). */
const OPEN_ALERTS_SHOWN = 20;

/** The overview's on-call part: an owner's account, or every account for the administrator. */
export function oncallOverviewReader(env: PanelEnv) {
  const { schedules } = env.deps.services;
  return async (account: Account | null): Promise<OncallOverviewData> => {
    const [views, openAlerts, accountNames] = await Promise.all([
      schedules.views(account?.id ?? null, 0),
      env.services.panelReads.openAlerts(account?.id ?? null, OPEN_ALERTS_SHOWN),
      account ? null : accountNamesOf(env),
    ]);
    // The engine's last look (src/schedules/coverage-gauges.ts, once a minute): the overview and its
    // 5 s refresh read it, never compute it. Only schedules with something wrong.
    const coverage = (env.deps.coverage?.() ?? []).filter((c) => (account === null || c.account === account.id) && (c.gapSeconds > 0 || c.unverifiedPeople > 0));
    return {
      coverage: coverage.map((c) => ({ accountId: c.account, schedule: c.schedule, gapSeconds: c.gapSeconds, unverifiedPeople: c.unverifiedPeople })),
      oncall: views.map((v) => ({ accountId: v.schedule.accountId, schedule: v.schedule.name, timeZone: v.schedule.timeZone, ...v.now })),
      openAlerts,
      ...(accountNames ? { accountNames } : {}),
    };
  };
}

/** Every account's name by id: the administrator's lists span accounts and say whose each row is (issue 49). */
export async function accountNamesOf(env: PanelEnv): Promise<Record<string, string>> {
  return Object.fromEntries((await env.deps.store.accounts.list()).map((a) => [a.id, a.name]));
}
