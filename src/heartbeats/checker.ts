import type { Clock } from '../clock';
import { escalationPlan } from '../escalation';
import { metrics } from '../metrics';
import { enqueueCalls } from '../intake/enqueue';
import { describeError, type Logger } from '../log';
import type { LoopSpec } from '../engine';
import { newLease, type Heartbeat, type Store, type Tx } from '../store';
import { heartbeatAlertKey } from './service';
import { defaultHeartbeatMessage, minutesSince, type HeartbeatLanguage } from './words';

/** docs/on-call.md "Heartbeats": deadlines are checked at least every 5 s; this often, in fact. */
export const CHECK_EVERY_MS = 1000;
/** How often a checker says it is alive (heartbeat_nodes), and how old that may be while it counts as alive. */
const SEEN_EVERY_MS = 5000;
const ALIVE_WITHIN_MS = 15_000;
/** Heartbeats claimed per look; the rest wait for the next look, a second later. */
const CLAIM_LIMIT = 20;

export interface HeartbeatCheckerDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** This appliance, stable across its restarts (host and data folder): heartbeat_nodes' key. */
  node: string;
  /** calls.lease_s in ms: a checker that hangs after a claim leaves the heartbeat to another this long after. */
  leaseMs: number;
  /** panel.language: the default alert text's language. */
  language: HeartbeatLanguage;
  timeZone: string;
  /** Why new calls would wait (no SIP trunk), as the intake stores it. */
  waitReason?: () => string | null;
  /** New calls were queued: wake the dialer. */
  onQueued?: (callIds: string[]) => void;
}

/**
 * Raises the alert of every heartbeat whose deadline passed (docs/on-call.md "Heartbeats"). Every
 * appliance on one database runs one; none leads. A look claims due heartbeats row by row
 * under a lease measured by the lease clock (dialect.ts), then fires each in its own
 * transaction, guarded by the edge up -> late (store heartbeats.markLate): a ping that moved
 * the deadline, or another checker that took over an expired lease and fired first, makes
 * the guard fail, so each miss raises exactly one alert.
 *
 *   new ──first ping──> up ──deadline passed──> late (alert raised, called like any alert)
 *                        ^                        │
 *                        └────────next ping───────┘ (alert resolved, waiting calls cancelled)
 *   paused: never fires; resume gives an up heartbeat a full interval + grace.
 *
 * At start, when no other appliance checked deadlines within ALIVE_WITHIN_MS, the service
 * was down: pingers had nowhere to ping, so every up heartbeat gets interval + grace from
 * now (as if pinged at the start) before it can fire.
 */
export interface HeartbeatChecker extends LoopSpec {
  /** One look every CHECK_EVERY_MS: claims and fires what is due; resolves when done. */
  tick(): Promise<void>;
  /** The start-up grace (the engine's begin). */
  begin(): Promise<void>;
  /** The start-up grace alone (tests): how many heartbeats got a fresh deadline. */
  startUp(): Promise<number>;
  /** After the last look: lets go of this checker's leases (another appliance takes them at once). */
  end(): Promise<void>;
}

export function createHeartbeatChecker(d: HeartbeatCheckerDeps): HeartbeatChecker {
  const log = d.log.child({ component: 'heartbeats' });
  const lease = newLease(d.leaseMs);
  let lastSeenAt = -Infinity;

  /** One heartbeat's miss, in one transaction: the edge up -> late, the alert, its calls. */
  const fire = (claimed: Heartbeat) =>
    d.store.transaction(async (tx) => {
      const now = d.clock();
      const h = await tx.heartbeats.markLate(claimed.id, lease.owner, now);
      if (!h) return null;
      const account = await tx.accounts.get(h.accountId);
      if (!account || account.disabled) return { h, skipped: 'account disabled' as const };
      const policy = h.policyId ? await tx.policies.get(h.policyId) : null;
      if (h.policyId && !policy) return { h, skipped: 'its policy was deleted' as const };
      const message = h.message ?? defaultHeartbeatMessage(d.language, h.name, minutesSince(h.lastPingAt, now));
      // The intake's own unit of work, run inside this transaction: dedupe, credit, calls, escalation.
      const inThisTransaction = { transaction: <T>(work: (t: Tx) => Promise<T>) => work(tx) };
      const r = await enqueueCalls(
        inThisTransaction,
        () => now,
        {
          timeZone: d.timeZone,
          // Each miss is a new incident (it only follows a ping), never a monitor's repeat: an
          // acknowledged alert of the last miss must not stand in for this one's calls.
          dedupeWindowMs: 0,
          waitReason: d.waitReason?.() ?? null,
        },
        {
          endpoint: 'webhook',
          source: 'heartbeat',
          accountId: h.accountId,
          monthlyCredit: account.monthlyCredit,
          credentialId: null,
          phoneNumbers: h.numbers,
          message,
          alertKey: heartbeatAlertKey(h.id),
          idempotencyKey: null,
          escalation: policy ? { policy, plan: escalationPlan(policy, h.numbers) } : null,
        },
      );
      if (r.outcome.code !== 'QUEUED') return { h, skipped: r.outcome.code };
      if (r.outcome.alertId) await tx.heartbeats.setAlert(h.id, r.outcome.alertId);
      return { h, alertId: r.outcome.alertId ?? null, callIds: r.outcome.callIds, warning: r.outcome.warning ?? null, newlyUnroutable: r.newlyUnroutable === true };
    });

  const look = async () => {
    const now = d.clock();
    if (now - lastSeenAt >= SEEN_EVERY_MS) {
      await d.store.transaction((tx) => tx.heartbeats.seen(d.node, now));
      lastSeenAt = now;
    }
    // A plain read first: most looks find nothing due and cost no transaction.
    if (!(await d.store.heartbeats.anyDue(now))) return;
    const claimed = await d.store.transaction((tx) => tx.heartbeats.claimDue(now, CLAIM_LIMIT, lease));
    for (const c of claimed) {
      const r = await fire(c);
      if (!r) continue;
      if ('skipped' in r) {
        log.warn({ heartbeat: r.h.id, account: r.h.accountId, reason: r.skipped }, 'heartbeat late: nobody called');
        continue;
      }
      log.warn({ heartbeat: r.h.id, account: r.h.accountId, alert: r.alertId, calls: r.callIds, ...(r.warning ? { warning: r.warning } : {}) }, 'heartbeat late: alert raised');
      // Its policy reached nobody (docs/on-call.md "Nothing silently calls nobody"): counted once
      // committed, per alert, by the intake's own rule (enqueueCalls' newlyUnroutable).
      if (r.newlyUnroutable) metrics.alertsUnroutable.inc();
      if (r.callIds.length > 0) d.onQueued?.(r.callIds);
    }
  };

  const startUp = async () => {
    const now = d.clock();
    const pushed = await d.store.transaction(async (tx) => {
      const alone = !(await tx.heartbeats.otherNodeAlive(d.node, now, ALIVE_WITHIN_MS));
      const n = alone ? await tx.heartbeats.giveFullInterval(now) : 0;
      await tx.heartbeats.seen(d.node, now);
      return alone ? n : -1;
    });
    lastSeenAt = now;
    if (pushed > 0) log.info({ heartbeats: pushed }, 'no appliance checked heartbeats while this one was down: each gets a full interval from now');
    return Math.max(0, pushed);
  };

  return {
    name: 'heartbeats',
    everyMs: CHECK_EVERY_MS,
    tick: look,
    startUp,
    begin: async () => void (await startUp()),
    async end() {
      await d.store.transaction((tx) => tx.heartbeats.releaseLeases(lease.owner)).catch((e) => log.warn({ error: describeError(e) }, 'letting go of heartbeat leases failed'));
    },
  };
}
