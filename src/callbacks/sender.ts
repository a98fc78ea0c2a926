import type { Clock } from '../clock';
import type { Logger } from '../log';
import { randomToken } from '../ids';
import type { AttemptRecord, OutboxEvent, Store } from '../store';
import { nextAttemptAt } from './schedule';
import { callbackHeaders } from './signing';

/** One HTTP POST; resolves with the answer's status, rejects on a network error or `signal`. */
export type PostCallback = (url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<number>;

export const fetchPost: PostCallback = async (url, { headers, body, signal }) => {
  const res = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
  // The answer's body is of no interest; not reading it frees the connection.
  await res.body?.cancel().catch(() => undefined);
  return res.status;
};

export interface CallbackSenderDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  post?: PostCallback;
  /** Requests in flight at most, in all (default 8). */
  concurrency?: number;
  /** Requests in flight at most per account (default 2): one slow target never takes every slot. */
  perAccount?: number;
  /** A request not answered in this time counts as failed and is retried (default 10 s). */
  timeoutMs?: number;
  /** How often the outbox is looked at (default 1 s). */
  pollMs?: number;
  /** Delivered and given-up events are kept this long for the panel (default 7 days). */
  keepMs?: number;
  /**
   * How long an event being sent is this sender's alone (calls.lease_s, default 30 s): another
   * appliance's sender takes it over once that ran out without a result (this one hung or died).
   */
  leaseMs?: number;
}

/**
 * Delivers the outbox (README "Callbacks", Delivery): at least once, in order per
 * alert (the store hands out only the first pending event of each alert, and this sender
 * never sends an event it already has in flight), retried on the schedule in schedule.ts.
 *
 * It runs beside intake and dialling and MUST never slow them: the network is only ever
 * awaited outside any transaction (results are written afterwards, one small transaction
 * each), every request has a timeout, and the requests in flight are bounded in all and per
 * account. A restart loses nothing: an event is pending until its delivery is recorded, so
 * one in flight when the process stopped is simply sent again.
 *
 * Every appliance on one PostgreSQL runs a sender; none leads. An event is leased to the
 * sender about to send it (outbox.claim, `leaseMs` by the database's clock), so two never
 * send it at once; one that hangs or dies leaves it to another when the lease runs out. A
 * sender sends only while its lease holds, and records a result only if the event is still
 * leased to it: one that wakes up after another took over neither sends again nor writes
 * over the other's result.
 */
export interface CallbackSender {
  start(): void;
  /** Claims and sends whatever is due now (the poll calls this; tests too); resolves once the claims are made. */
  pump(): Promise<void>;
  /** Resolves when nothing is in flight (nor being claimed). */
  idle(): Promise<void>;
  /** Stops polling and aborts requests in flight without recording them (they stay pending). */
  stop(): Promise<void>;
}

export function createCallbackSender(d: CallbackSenderDeps): CallbackSender {
  const log = d.log.child({ component: 'callbacks' });
  const post = d.post ?? fetchPost;
  const concurrency = d.concurrency ?? 8;
  const perAccount = d.perAccount ?? 2;
  const timeoutMs = d.timeoutMs ?? 10_000;
  const keepMs = d.keepMs ?? 7 * 24 * 3_600_000;
  const lease = { owner: `sender_${randomToken(16)}`, ms: d.leaseMs ?? 30_000 };
  const inFlight = new Map<string, { accountId: string; done: Promise<void> }>();
  const stopping = new AbortController();
  let poll: ReturnType<typeof setInterval> | null = null;
  let lastPrune = 0;

  const busyAccounts = (accountId: string) => [...inFlight.values()].filter((f) => f.accountId === accountId).length;
  const saturatedAccounts = () => [...new Set([...inFlight.values()].map((f) => f.accountId))].filter((a) => busyAccounts(a) >= perAccount);

  const attempt = async (event: OutboxEvent): Promise<AttemptRecord | null> => {
    // Still ours? This sender may have hung between the claim and now, and another sent it.
    if (!(await d.store.outbox.leasedTo(event.eventId, lease.owner, d.clock()))) return null;
    const target = await d.store.outbox.target(event.accountId);
    if (!target) return { at: d.clock(), status: null, error: 'the account has no callback_url any more', outcome: 'given_up' };
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await post(target.url, {
        headers: callbackHeaders(target.secret, event.body, d.clock()),
        body: event.body,
        signal: AbortSignal.any([timeout.signal, stopping.signal]),
      });
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      if (stopping.signal.aborted) return null;
      error = timeout.signal.aborted ? `no answer in ${timeoutMs / 1000} s` : (e as Error).message || String(e);
    } finally {
      clearTimeout(timer);
    }
    const at = d.clock();
    if (error === null) return { at, status, error, outcome: 'delivered' };
    const next = nextAttemptAt(event.createdAt, event.attempts + 1, at);
    return next === null ? { at, status, error, outcome: 'given_up' } : { at, status, error, outcome: 'retry', nextAttemptAt: next };
  };

  const send = async (event: OutboxEvent): Promise<void> => {
    const result = await attempt(event);
    if (!result) return; // stopped mid-request or no longer ours: still pending, sent again (by whoever holds it)
    const fields = { event: event.eventId, type: event.type, account: event.accountId, attempt: event.attempts + 1, status: result.status };
    if (!(await d.store.transaction((tx) => tx.outbox.recordAttempt(event.eventId, result, lease.owner)))) {
      log.warn(fields, 'callback lease was taken over by another appliance; its result stands');
      return;
    }
    if (result.outcome === 'delivered') log.info(fields, 'callback delivered');
    else if (result.outcome === 'retry') log.warn({ ...fields, error: result.error, next: new Date(result.nextAttemptAt).toISOString() }, 'callback failed; will retry');
    else log.error({ ...fields, error: result.error }, 'callback given up');
  };

  const startSending = (event: OutboxEvent) => {
    const done = send(event)
      .catch((e) => log.error({ err: e, event: event.eventId }, 'recording a callback attempt failed'))
      .finally(() => {
        inFlight.delete(event.eventId);
        // The alert's next event may be due now that this one is settled.
        void pump();
      });
    inFlight.set(event.eventId, { accountId: event.accountId, done });
  };

  /** Fills the free slots with due events; claims again while it finds some (an account filled up meanwhile). */
  const fill = async () => {
    const now = d.clock();
    if (now - lastPrune > 3_600_000 && !stopping.signal.aborted) {
      lastPrune = now;
      d.store.transaction((tx) => tx.outbox.prune(now - keepMs)).catch((e) => log.error({ err: e }, 'pruning the outbox failed'));
    }
    for (let started = -1; started !== 0; ) {
      const free = concurrency - inFlight.size;
      if (stopping.signal.aborted || free <= 0) return;
      const skip = saturatedAccounts();
      // A plain read first: most polls find nothing, and cost no transaction.
      if ((await d.store.outbox.due(now, 1, skip)).length === 0) return;
      const claimed = await d.store.transaction((tx) => tx.outbox.claim(now, free, skip, lease));
      started = 0;
      const unsent: string[] = [];
      for (const event of claimed.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || a.seq - b.seq)) {
        if (stopping.signal.aborted || inFlight.size >= concurrency || inFlight.has(event.eventId) || busyAccounts(event.accountId) >= perAccount) {
          unsent.push(event.eventId);
          continue;
        }
        startSending(event);
        started++;
      }
      // Claimed but not started (an account's slots filled meanwhile): let them go at once.
      if (unsent.length > 0) await d.store.transaction((tx) => tx.outbox.releaseLeases(lease.owner, unsent));
    }
  };

  let pumping: Promise<void> | null = null;
  let again = false;
  /** One fill at a time; a pump asked for meanwhile runs once more after it. */
  const pump = (): Promise<void> => {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = fill()
      .catch((e) => log.error({ err: e }, 'reading the outbox failed'))
      .finally(() => {
        pumping = null;
        if (again && !stopping.signal.aborted) {
          again = false;
          void pump();
        }
      });
    return pumping;
  };

  return {
    start() {
      poll = setInterval(() => void pump(), d.pollMs ?? 1000);
      void pump();
    },
    pump,
    async idle() {
      while (pumping || inFlight.size > 0) {
        if (pumping) await pumping;
        await Promise.all([...inFlight.values()].map((f) => f.done));
      }
    },
    async stop() {
      if (poll) clearInterval(poll);
      poll = null;
      stopping.abort();
      await pumping;
      await Promise.all([...inFlight.values()].map((f) => f.done));
      // What was aborted stays pending: anyone may send it at once, not only after the lease.
      await d.store.transaction((tx) => tx.outbox.releaseLeases(lease.owner)).catch((e) => log.warn({ err: e }, 'letting go of callback leases failed'));
    },
  };
}
