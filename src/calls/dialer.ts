import { isSuppressed, type CallAudioSource, type CallOutcome } from '../call-model';
import type { Clock } from '../clock';
import type { LoopSpec } from '../engine';
import { describeError, type Logger } from '../log';
import type { AmdRequest, DialRequest } from '../sip';
import type { Store } from '../store';
import { runClaimedCall, type RunConfig, type RunDeps } from './run-claimed-call';

export interface DialerConfig extends RunConfig {
  max_concurrent: number;
  per_number_gap_s: number;
  per_number_per_hour: number;
}

export interface DialerDeps {
  store: Store;
  /** Places one attempt (src/sip/ua/telephone.ts). */
  dial(request: DialRequest): Promise<CallOutcome>;
  audio: CallAudioSource;
  clock: Clock;
  log: Logger;
  calls: DialerConfig;
  /** credit.timezone: refunds of calls an acknowledgement cancels. */
  timeZone: string;
  /** Voicemail detection on every answer (`[amd]`, docs/telephony.md "Voicemail detection"); null or absent: off. */
  amd?: AmdRequest | null;
  /** A person's call texted instead of dialled when this says so (run-claimed-call.ts RunDeps.textInstead). */
  textInstead?: (number: string) => boolean;
  /**
   * Heartbeat lease: renewed every third of it while the call lasts. The claim itself
   * holds for calls.ring_timeout_s more, so after a crash nobody dials the number again
   * while the dead worker's INVITE may still be ringing there.
   */
  leaseMs: number;
  /** Look for due retries this often even when nobody wakes us. */
  pollMs?: number;
  /**
   * An attempt still unsettled after this is given up and its channel released (default:
   * ring timeout + calls.max_call_s + 60 s). A bug below us must not hold a channel forever.
   */
  attemptLimitMs?: number;
  /**
   * On stop(), answered calls may play on this long (default 60 s), then they are hung up,
   * so the process ends within systemd's TimeoutStopSec (90 s) instead of being killed
   * mid-call and dialling the number again after the restart.
   */
  shutdownGraceMs?: number;
}

/**
 * The worker between the queue and the trunk. It claims due calls under a lease (up to
 * calls.max_concurrent at once), keeps their leases alive, and runs each one
 * (run-claimed-call.ts: dial → decide → move).
 * MUST be stopped with stop(): unanswered calls are cancelled and go back to the queue,
 * answered ones play to the end, or are hung up when the shutdown grace runs out.
 */
export interface Dialer {
  /**
   * Two engine loops (src/engine), in stop order: `dialer` looks for due calls every
   * `pollMs` (and for calls whose alerts closed); stopping it cancels unanswered calls and
   * waits for answered ones within the grace. `call-leases` renews the leases of held calls
   * every third of the lease, until the last of them ended: it MUST stop after `dialer`.
   */
  loops: [LoopSpec, LoopSpec];
  /** A trunk is up: claiming may begin (the loops look for nothing before). */
  start(): void;
  /** New calls were committed: look now, not at the next poll. */
  wake(): void;
  active(): number;
}

export function createDialer(d: DialerDeps): Dialer {
  const log = d.log.child({ component: 'dialer' });
  const attemptLimitMs = d.attemptLimitMs ?? (d.calls.ring_timeout_s + d.calls.max_call_s + 60) * 1000;
  // By call id: the call ids whose leases it keeps (the call and those bundled into it).
  const held = new Map<string, { leased: string[]; alertIds: string[]; cancel: AbortController; done: Promise<void> }>();
  const pacing = { gapMs: d.calls.per_number_gap_s * 1000, perHour: d.calls.per_number_per_hour };
  const shutdown = new AbortController();
  const graceOver = new AbortController();
  let started = false;
  let stopping = false;
  let pumping = false;
  let again = false;
  const runDeps: RunDeps = { ...d, log, attemptLimitMs, shutdown: shutdown.signal, hangUp: graceOver.signal };

  const pump = async (): Promise<void> => {
    if (!started || stopping) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopping && held.size < d.calls.max_concurrent) {
          const claimLeaseMs = d.leaseMs + d.calls.ring_timeout_s * 1000;
          const call = await d.store.transaction((tx) => tx.calls.claim(d.clock(), claimLeaseMs, pacing));
          if (!call) break;
          log.info({ call: call.id, attempt: call.attempts, from: call.from, bundled: call.bundled.map((b) => b.id) }, 'call claimed');
          const cancel = new AbortController();
          const done = runClaimedCall(runDeps, call, cancel.signal).catch((e) => log.error({ error: describeError(e), call: call.id }, 'call handling failed'));
          const alertIds = [call, ...call.bundled].map((c) => c.alertId).filter((a): a is string => a !== null);
          held.set(call.id, { leased: [call.id, ...call.bundled.map((b) => b.id)], alertIds, cancel, done });
          void done.finally(() => {
            held.delete(call.id);
            void pump();
          });
        }
      } while (again && !stopping);
    } catch (e) {
      log.error({ error: describeError(e) }, 'claiming calls failed');
    } finally {
      pumping = false;
    }
  };

  /**
   * A call whose every alert was closed elsewhere (acknowledged by another callee, resolved
   * by the API or another appliance) or suppressed by a maintenance window that started is
   * cancelled if it has not been answered yet.
   */
  const checkClosed = async (): Promise<void> => {
    const looked = [...held].filter(([, h]) => !h.cancel.signal.aborted && h.alertIds.length > 0);
    if (looked.length === 0) return;
    // Each alert read once, all at once (reads outside any transaction).
    const ids = [...new Set(looked.flatMap(([, h]) => h.alertIds))];
    const now = d.clock();
    const quiet = new Map(
      await Promise.all(ids.map(async (a) => [a, ((r) => !r || r.state !== 'open' || isSuppressed(r, now))(await d.store.alerts.get(a))] as const)),
    );
    for (const [id, h] of looked) {
      if (h.cancel.signal.aborted) continue; // cancelled meanwhile (an overlapping look)
      if (h.alertIds.every((a) => quiet.get(a))) {
        log.info({ call: id, alerts: h.alertIds }, 'its alerts were closed: cancelling the call if not answered yet');
        h.cancel.abort();
      }
    }
  };
  // One look at a time; a wake during a look asks for one more after it (as pump does).
  let checking: Promise<void> | null = null;
  let checkAgain = false;
  const cancelClosed = (): void => {
    // Stopping cancels every unanswered call anyway (shutdown); the store may be closing.
    if (stopping) return;
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = (async () => {
      do {
        checkAgain = false;
        await checkClosed();
      } while (checkAgain && !stopping);
    })()
      .catch((e) => log.error({ error: describeError(e) }, 'checking the alerts of calls in progress failed'))
      .finally(() => (checking = null));
  };

  const look = async () => {
    cancelClosed();
    await pump();
  };
  const renewLeases = async () => {
    if (held.size === 0) return;
    const ids = [...held.values()].flatMap((h) => h.leased);
    await d.store.transaction((tx) => tx.calls.renewLeases(ids, d.leaseMs, d.clock()));
  };
  const halt = () => {
    if (stopping) return;
    stopping = true;
    shutdown.abort();
  };
  const drain = async () => {
    halt();
    const graceMs = d.shutdownGraceMs ?? 60_000;
    log.info({ active: held.size, graceMs }, 'dialer stopping: unanswered calls go back to the queue, answered ones finish within the grace');
    const grace = setTimeout(() => graceOver.abort(), graceMs);
    await Promise.all([...held.values()].map((h) => h.done));
    await checking;
    clearTimeout(grace);
  };

  return {
    loops: [
      { name: 'dialer', everyMs: d.pollMs ?? 1000, tick: look, halt, end: drain },
      { name: 'call-leases', everyMs: Math.max(100, Math.floor(d.leaseMs / 3)), tick: renewLeases },
    ],
    start() {
      started = true;
      void pump();
    },
    wake: () => void look(),
    active: () => held.size,
  };
}
