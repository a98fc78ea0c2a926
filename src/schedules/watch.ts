import { emitOncallChanged, type OncallPerson } from '../callbacks/events';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { LoopSpec } from '../engine';
import { newLease, type ScheduleRecord, type Store } from '../store';
import { recordHandoff } from './handoff-record';
import { rulesOf } from './rules';
import { onCallAt } from './timeline';

/** How often due schedules are looked for: an `oncall.changed` is written within seconds of the change. */
export const WATCH_POLL_MS = 5_000;
/** With nobody changing within a year, look again a day later anyway. */
const IDLE_LOOK_MS = 86_400_000;
/** Changes written per schedule per look, at most (an appliance down for weeks catches up in a few looks). */
const MAX_CHANGES_PER_LOOK = 50;

export interface OncallWatchDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** How long a claimed schedule is this appliance's alone (calls.lease_s). */
  leaseMs: number;
}

/**
 * Sends `oncall.changed` (docs/on-call.md "On-call schedules") when a schedule's on-call person
 * changes, exactly once across the appliances on one database: each schedule row carries
 * the next instant its on-call person changes (`watch_at`); a due row is claimed with a lease
 * by the database's clock (store/schedules.ts claimWatch, FOR UPDATE SKIP LOCKED on
 * PostgreSQL), then one transaction checks the lease is still this watch's, records who is
 * on call now and the next change, and writes the events to the outbox beside it (and, for
 * a schedule with hand-off calls, its latest change as a hand-off: handoff-record.ts).
 */
export interface OncallWatch extends LoopSpec {
  /** One look: resolves with how many events were written, once they committed. */
  tick(): Promise<number>;
}

const person = (p: { name: string | null; number: string | null }): OncallPerson | null => (p.number === null ? null : { name: p.name, number: p.number });

export function createOncallWatch(d: OncallWatchDeps): OncallWatch {
  const log = d.log.child({ component: 'oncall-watch' });
  const lease = newLease(d.leaseMs);

  const look = async (s: ScheduleRecord): Promise<number> =>
    d.store.transaction(async (tx) => {
      const now = d.clock();
      const rules = await rulesOf(tx, s, Math.min(s.watchAt, now));
      // Every change from the last look up to now, each at its own instant.
      const changes: { from: OncallPerson | null; to: OncallPerson | null; at: number }[] = [];
      let seen = { name: s.watchedName, number: s.watchedNumber };
      let t = Math.min(s.watchAt, now);
      let next: number | null = t;
      while (next !== null && next <= now && changes.length < MAX_CHANGES_PER_LOOK) {
        t = next;
        const who = onCallAt(rules, t);
        if (who.number !== seen.number || who.name !== seen.name) changes.push({ from: person(seen), to: person(who), at: t });
        seen = { name: who.name, number: who.number };
        next = who.until;
      }
      if (next !== null && next <= now) next = now; // more to catch up on: the next look goes on
      if (!(await tx.schedules.finishWatch(s.id, lease.owner, { ...seen, nextAt: next ?? now + IDLE_LOOK_MS }))) return 0;
      for (const c of changes) await emitOncallChanged(tx, s, c.from, c.to, c.at);
      const last = changes[changes.length - 1];
      if (s.handoffCall && last) await recordHandoff(tx, s, last.at, now);
      return changes.length;
    });

  const tick = async (): Promise<number> => {
    // A plain read first: most looks find nothing due, and cost no transaction.
    if (!(await d.store.schedules.anyWatchDue(d.clock()))) return 0;
    const claimed = await d.store.transaction((tx) => tx.schedules.claimWatch(d.clock(), 20, lease));
    let written = 0;
    for (const s of claimed) {
      const n = await look(s);
      if (n > 0) log.info({ schedule: s.id, account: s.accountId, changes: n }, 'on-call person changed');
      written += n;
    }
    return written;
  };

  return { name: 'oncall-watch', everyMs: WATCH_POLL_MS, tick };
}
