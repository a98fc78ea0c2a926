import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { DialRequest } from '../sip';
import type { CallOutcome } from '../call-model';
import type { CallRecord, Store } from '../store';
import type { CallAudioSource } from '../call-model';
import { decide, type RetryConfig } from './retry-policy';
import { CLAIMED_STATE, isFinal, transition, type CallState } from '../call-model';

export interface DialerConfig extends RetryConfig {
  answer_delay_ms: number;
  ring_timeout_s: number;
  max_concurrent: number;
  max_age_s: number;
  max_call_s: number;
}

export interface DialerDeps {
  store: Store;
  /** Places one attempt (src/sip/telephone.ts). */
  dial(request: DialRequest): Promise<CallOutcome>;
  audio: CallAudioSource;
  clock: Clock;
  log: Logger;
  calls: DialerConfig;
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
 * calls.max_concurrent at once), sends the INVITE before the speech is rendered, records
 * every edge, and leaves the meaning of each outcome to retry-policy.ts.
 * MUST be stopped with stop(): unanswered calls are cancelled and go back to the queue,
 * answered ones play to the end, or are hung up when the shutdown grace runs out.
 */
export interface Dialer {
  start(): void;
  /** New calls were committed: look now, not at the next poll. */
  wake(): void;
  active(): number;
  stop(): Promise<void>;
}

export function createDialer(d: DialerDeps): Dialer {
  const log = d.log.child({ component: 'dialer' });
  const attemptLimitMs = d.attemptLimitMs ?? (d.calls.ring_timeout_s + d.calls.max_call_s + 60) * 1000;
  const held = new Map<string, { attempt: number; done: Promise<void> }>();
  const shutdown = new AbortController();
  const graceOver = new AbortController();
  let started = false;
  let stopping = false;
  let pumping = false;
  let again = false;
  let poll: ReturnType<typeof setInterval> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;

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
          const call = await d.store.writes.run(() => d.store.calls.claim(d.clock(), claimLeaseMs));
          if (!call) break;
          log.info({ call: call.id, attempt: call.attempts, from: call.from }, 'call claimed');
          const done = run(call).catch((e) => log.error({ err: e, call: call.id }, 'call handling failed'));
          held.set(call.id, { attempt: call.attempts, done });
          void done.finally(() => {
            held.delete(call.id);
            void pump();
          });
        }
      } while (again && !stopping);
    } catch (e) {
      log.error({ err: e }, 'claiming calls failed');
    } finally {
      pumping = false;
    }
  };

  async function run(call: CallRecord): Promise<void> {
    let state: CallState = CLAIMED_STATE;
    const attempt = call.attempts;
    const move = async (to: CallState, extra: { sipCode?: number | null; reason?: string; runAfter?: number; refundAttempt?: boolean } = {}) => {
      const edge = transition(state, to);
      if (!('ok' in edge)) {
        log.error({ call: call.id, from: state, to }, 'illegal call transition refused');
        return;
      }
      const moved = await d.store.writes.run(() =>
        d.store.calls.move(call.id, {
          from: state,
          to,
          at: d.clock(),
          attempt,
          ...extra,
          answered: to === 'answered',
          acknowledged: to === 'acknowledged',
          finished: isFinal(to),
        }),
      );
      if (!moved) {
        log.warn({ call: call.id, from: state, to }, 'call changed under us (lease taken over); leaving it');
        return;
      }
      log.info({ call: call.id, attempt, from: state, to, sipCode: extra.sipCode ?? null, reason: extra.reason }, 'call state');
      state = to;
    };

    if (attempt > d.calls.max_attempts) {
      // Only a lease that ran out (a crash mid-call) can bring a call here.
      await move('failed', { reason: `attempts used up (${attempt - 1} of ${d.calls.max_attempts}); last one interrupted` });
      return;
    }
    if (d.clock() - call.createdAt > d.calls.max_age_s * 1000) {
      await move('expired', { reason: `not placed within calls.max_age_s (${d.calls.max_age_s} s)` });
      return;
    }

    let writes = Promise.resolve();
    const later = (fn: () => Promise<void>) => (writes = writes.then(fn));
    const request: DialRequest = {
      number: call.phoneNumber,
      // Rendering starts once the INVITE left and runs while the phone rings.
      audio: () => d.audio.forMessage(call.message),
      acknowledgedAudio: () => d.audio.acknowledged(),
      ringTimeoutMs: d.calls.ring_timeout_s * 1000,
      answerDelayMs: d.calls.answer_delay_ms,
      maxCallMs: d.calls.max_call_s * 1000,
      signal: shutdown.signal,
      hangUpSignal: graceOver.signal,
      progress: {
        ringing: (status, reason) => later(() => move('ringing', { sipCode: status, reason })),
        answered: (codec) => later(() => move('answered', { sipCode: 200, reason: `answered (${codec})` })),
        digit: (digit) => log.info({ call: call.id, digit }, 'keypad'),
      },
    };
    // A dial that throws (a bug, a trunk gone) is a failed attempt like any other.
    const dialing: Promise<CallOutcome> = Promise.resolve()
      .then(() => d.dial(request))
      .catch((e: Error) => ({ code: 'NETWORK', status: null, reason: `dial failed: ${e.message}` }));
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const stuck = new Promise<CallOutcome>((resolve) => {
      watchdog = setTimeout(() => {
        log.error({ call: call.id, attempt, limitMs: attemptLimitMs }, 'attempt did not finish in time: channel released, call goes on as a failure');
        resolve({ code: 'NETWORK', status: null, reason: `attempt did not finish within ${Math.round(attemptLimitMs / 1000)} s` });
      }, attemptLimitMs);
    });
    const outcome = await Promise.race([dialing, stuck]).finally(() => clearTimeout(watchdog));
    await Promise.race([writes, stuck]);

    if (outcome.code === 'ABORTED') {
      await move('queued', { reason: outcome.reason, runAfter: d.clock(), refundAttempt: true });
      return;
    }
    const decision = decide(outcome, attempt, d.clock(), d.calls);
    if (decision.final) {
      await move(decision.state, { sipCode: decision.sipCode, reason: decision.reason });
    } else {
      const waitS = Math.round((decision.runAfter - d.clock()) / 1000);
      await move('queued', {
        sipCode: decision.sipCode,
        reason: `${decision.kind}: ${decision.reason}; retry in ${waitS} s`,
        runAfter: decision.runAfter,
      });
    }
  }

  return {
    start() {
      started = true;
      poll = setInterval(() => void pump(), d.pollMs ?? 1000);
      heartbeat = setInterval(() => {
        if (held.size === 0) return;
        const now = d.clock();
        const ids = [...held.keys()];
        d.store.writes.run(() => d.store.calls.renewLeases(ids, now + d.leaseMs, now)).catch((e) => log.error({ err: e }, 'lease renewal failed'));
      }, Math.max(100, Math.floor(d.leaseMs / 3)));
      void pump();
    },
    wake: () => void pump(),
    active: () => held.size,
    async stop() {
      stopping = true;
      if (poll) clearInterval(poll);
      shutdown.abort();
      const graceMs = d.shutdownGraceMs ?? 60_000;
      log.info({ active: held.size, graceMs }, 'dialer stopping: unanswered calls go back to the queue, answered ones finish within the grace');
      const grace = setTimeout(() => graceOver.abort(), graceMs);
      await Promise.all([...held.values()].map((h) => h.done));
      clearTimeout(grace);
      if (heartbeat) clearInterval(heartbeat);
    },
  };
}
