import { periodOf } from '../credit';
import type { Account, AccountScope, AlertFilter, CallFilter, HistoryFilter, PanelUser, Store } from '../store';

/** How many recent failures the overview lists. */
const FAILURES_SHOWN = 8;

/**
 * What the panel's pages read, each scoped to the account in the path (the store's
 * …InAccount lookups: another account's row is not found, like a missing one). The routes
 * read through this and write through the services (src/accounts, src/alerts, password
 * changes), so they never touch the store.
 */
export function createPanelReads({ store, clock, timeZone }: { store: Store; clock: () => number; timeZone: string }) {
  return {
    /** The account in a page's path (the guard checks the user may see it). */
    account: (accountId: string) => store.accounts.get(accountId),

    /** The account an owner works in; null for the administrator (every account). */
    accountOf: (user: PanelUser): Promise<Account | null> =>
      user.role === 'admin' || !user.accountId ? Promise.resolve(null) : store.accounts.get(user.accountId),

    /** The overview's figures (grouped queries, cheap on a large history): scope null = every account. */
    async overview(scope: AccountScope, today: number) {
      const [calls, alerts, queue, lastSip, finished, failures] = await Promise.all([
        store.opsCounts.callsByState(scope),
        store.opsCounts.alertsByState(scope),
        // The whole queue's age for an administrator only.
        scope === null ? store.health.queue() : null,
        store.panelQueries.lastSipOutcome(),
        store.opsCounts.finishedSince(today, scope),
        store.opsCounts.recentFailures(FAILURES_SHOWN, scope),
      ]);
      return { calls, alerts, queue, lastSip, finished, failures };
    },

    /** Credit used by the account in the current period. */
    usedNow: (accountId: string) => store.usage.usedIn(accountId, periodOf(clock(), timeZone)),

    /** The credit page: every charged call's time since `since`, and the period's total. */
    async creditUsage(accountId: string, since: number, period: string) {
      const [times, used] = await Promise.all([store.panelQueries.chargedCallTimes(accountId, since), store.usage.usedIn(accountId, period)]);
      return { times, used };
    },

    /** The administrator's accounts page: each account with its owners and this period's use. */
    async accounts() {
      const period = periodOf(clock(), timeZone);
      return Promise.all(
        (await store.accounts.list()).map(async (account) => {
          const [owners, used] = await Promise.all([store.panelUsers.listForAccount(account.id), store.usage.usedIn(account.id, period)]);
          return { account, owners, used };
        }),
      );
    },

    /** An owner of this account (for a password reset); the administrator and other accounts' owners are not found. */
    async ownerInAccount(accountId: string, userId: string) {
      const user = await store.panelUsers.getInAccount(accountId, userId);
      return user?.role === 'owner' ? user : null;
    },

    calls: (filter: CallFilter & { accountId: string }) => store.panelQueries.calls(filter),
    history: (filter: HistoryFilter & { accountId: string }) => store.panelQueries.history(filter),
    alerts: (filter: AlertFilter & { accountId: string }) => store.panelQueries.alerts(filter),
    alertSources: (accountId: string) => store.panelQueries.alertSources(accountId),

    /** A call of the account with its transitions, or null. */
    async call(accountId: string, callId: string) {
      const call = await store.calls.getInAccount(accountId, callId);
      return call ? { call, events: await store.calls.events(call.id) } : null;
    },

    /** A call of the account without its transitions (what it plays), or null. */
    callOnly: (accountId: string, callId: string) => store.calls.getInAccount(accountId, callId),

    /**
     * An alert of the account with its calls, each call's transitions (the alert page shows
     * them as GET /api/calls/{id} does), and every text and e-mail sent or received for it
     * with the person's name (docs/second-path.md "On the alert"); null when not found.
     */
    async alert(accountId: string, alertId: string) {
      const alert = await store.alerts.getInAccount(accountId, alertId);
      if (!alert) return null;
      const [calls, texts, people] = await Promise.all([store.calls.ofAlert(alert.id), store.textNotices.ofAlert(alert.id), store.people.list(accountId)]);
      const events = new Map(await Promise.all(calls.map(async (c) => [c.id, await store.calls.events(c.id)] as const)));
      const names = new Map(people.map((p) => [p.id, p.name]));
      return { alert, calls, events, texts: texts.map((x) => ({ ...x, personName: x.personId ? (names.get(x.personId) ?? null) : null })) };
    },

    /** The Import page (docs/panel.md "Import"): each source's last applied plan and check as JSON, the one used last first. */
    importRuns: (accountId: string) => store.importRuns.ofAccount(accountId),

    /** The account's active key sets, oldest first as created. */
    keys: (accountId: string) => store.credentials.listForAccount(accountId),
    keyInAccount: (accountId: string, apiKey: string) => store.credentials.findByApiKeyInAccount(accountId, apiKey),

    /** The account's policies, and its active keys each with the policy its requests use by default. */
    async policies(accountId: string) {
      const [list, keys] = await Promise.all([store.policies.list(accountId), store.credentials.listForAccount(accountId)]);
      const active = keys.filter((k) => k.revokedAt === null);
      const withDefaults = await Promise.all(active.map(async (k) => ({ ...k, defaultPolicyId: (await store.policies.defaultOf(k.id))?.id ?? null })));
      return { list, keys: withDefaults };
    },

    /** The overview's open alerts (open or unacknowledged), newest first: an account's, or every account's (null). */
    openAlerts: (scope: AccountScope, limit: number) => store.panelQueries.openAlerts(scope, limit),

    /** Each trunk's newest voice-path self-test (the overview). */
    lastSelfTests: () => store.selfTests.latestPerTrunk(),

    /** The last SIP answer any call got (settings and overview). */
    lastSipOutcome: () => store.panelQueries.lastSipOutcome(),
  };
}

export type PanelReads = ReturnType<typeof createPanelReads>;
