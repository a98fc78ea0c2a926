import type { Clock } from '../clock';
import type { Logger } from '../log';
import { createPoller } from '../poller';
import { randomToken } from '../ids';
import type { Store } from '../store';
import { startWindow } from './start';

/** How often due starts are looked for: README "Maintenance windows" promises a start within 10 s. */
export const START_POLL_MS = 2_000;

export interface WindowStarterDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** credit.timezone: refunds go back to the period a call was charged in. */
  timeZone: string;
  /** How long a claimed start is this appliance's alone (calls.lease_s): another takes it over after that. */
  leaseMs: number;
  /** Calls were cancelled or alerts suppressed: the dialer looks at the calls it holds now, not at its next poll. */
  onStarted?: () => void;
}

/**
 * Carries out the start of every window whose time came (start.ts), each exactly once across
 * the appliances on one database: a start is claimed with a lease by the database's clock
 * (store/maintenance.ts claimStarts, FOR UPDATE SKIP LOCKED on PostgreSQL), then done in one
 * transaction that first checks the lease is still this starter's. No leader: an appliance
 * that hangs after claiming leaves the start to another once the lease runs out. A start
 * missed while every appliance was down is done at the next start-up, unless the window
 * already ended meanwhile.
 */
export interface WindowStarter {
  /** One look: claims and carries out the starts that are due; resolves when they committed. */
  tick(): Promise<number>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

export function createWindowStarter(d: WindowStarterDeps): WindowStarter {
  const log = d.log.child({ component: 'maintenance' });
  const lease = { owner: `mw_${randomToken(16)}`, ms: d.leaseMs };

  const tick = async (): Promise<number> => {
    // A plain read first: most looks find nothing due, and cost no transaction.
    if (!(await d.store.maintenance.anyStartDue(d.clock()))) return 0;
    const claimed = await d.store.transaction((tx) => tx.maintenance.claimStarts(d.clock(), 10, lease));
    let started = 0;
    for (const w of claimed) {
      const done = await d.store.transaction(async (tx) => {
        const now = d.clock();
        if (!(await tx.maintenance.markStarted(w.id, lease.owner, now))) return null;
        return startWindow(tx, w, now, d.timeZone);
      });
      if (!done) continue;
      started += 1;
      log.info({ window: w.id, account: w.accountId, alerts: done.alertIds, cancelled: done.cancelledCallIds }, 'maintenance window started');
    }
    if (started > 0) d.onStarted?.();
    return started;
  };

  const poller = createPoller(tick, log, 'starting maintenance windows');
  return {
    tick: poller.tick,
    start: (intervalMs = START_POLL_MS) => poller.start(intervalMs),
    stop: poller.stop,
  };
}
