import type { Clock } from '../clock';
import type { Logger } from '../log';
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
}

/**
 * Delivers the outbox (contract.md "Outcome callbacks"): at least once, in order per
 * alert (the store hands out only the first pending event of each alert, and this sender
 * never sends an event it already has in flight), retried on the schedule in schedule.ts.
 *
 * It runs beside intake and dialling and MUST never slow them: the network is only ever
 * awaited outside any transaction (results are written afterwards, one small write each,
 * through the group commit), every request has a timeout, and the requests in flight are
 * bounded in all and per account. A restart loses nothing: an event is pending until its
 * delivery is recorded, so one in flight when the process stopped is simply sent again.
 */
export interface CallbackSender {
  start(): void;
  /** Sends whatever is due now (the poll calls this; tests too). */
  pump(): void;
  /** Resolves when nothing is in flight. */
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
  const inFlight = new Map<string, { accountId: string; done: Promise<void> }>();
  const stopping = new AbortController();
  let poll: ReturnType<typeof setInterval> | null = null;
  let lastPrune = 0;

  const busyAccounts = (accountId: string) => [...inFlight.values()].filter((f) => f.accountId === accountId).length;
  const saturatedAccounts = () => [...new Set([...inFlight.values()].map((f) => f.accountId))].filter((a) => busyAccounts(a) >= perAccount);

  const attempt = async (event: OutboxEvent): Promise<AttemptRecord | null> => {
    const target = d.store.outbox.target(event.accountId);
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
    if (!result) return; // stopped mid-request: still pending, sent again after the restart
    await d.store.writes.run(() => d.store.outbox.recordAttempt(event.eventId, result));
    const fields = { event: event.eventId, type: event.type, account: event.accountId, attempt: event.attempts + 1, status: result.status };
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
        pump();
      });
    inFlight.set(event.eventId, { accountId: event.accountId, done });
  };

  /** Fills the free slots with due events; reads again while it finds some (an account filled up meanwhile). */
  const pump = () => {
    // Another appliance on the same PostgreSQL sends them (store/leadership.ts).
    if (!d.store.leads()) return;
    const now = d.clock();
    if (now - lastPrune > 3_600_000 && !stopping.signal.aborted) {
      lastPrune = now;
      d.store.writes.run(() => d.store.outbox.prune(now - keepMs)).catch((e) => log.error({ err: e }, 'pruning the outbox failed'));
    }
    for (let started = -1; started !== 0; ) {
      if (stopping.signal.aborted || inFlight.size >= concurrency) return;
      let due: OutboxEvent[];
      try {
        due = d.store.outbox.due(now, concurrency * 4 + inFlight.size, saturatedAccounts());
      } catch (e) {
        log.error({ err: e }, 'reading the outbox failed');
        return;
      }
      started = 0;
      for (const event of due) {
        if (inFlight.size >= concurrency) break;
        if (inFlight.has(event.eventId) || busyAccounts(event.accountId) >= perAccount) continue;
        startSending(event);
        started++;
      }
    }
  };

  return {
    start() {
      poll = setInterval(pump, d.pollMs ?? 1000);
      pump();
    },
    pump,
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()].map((f) => f.done));
    },
    async stop() {
      if (poll) clearInterval(poll);
      poll = null;
      stopping.abort();
      await Promise.all([...inFlight.values()].map((f) => f.done));
    },
  };
}
