import { IllegalTransitionError, isFinal, isInProgress, transition, type CallState } from '../call-model';
import type { Logger } from '../log';
import type { CallChange, Store } from '../store';
import type { Clock } from '../clock';

export type MoveDetails = Pick<CallChange, 'sipCode' | 'reason' | 'runAfter' | 'refundAttempt'>;

/**
 * One claimed call's state as this worker holds it. Every change goes through the call
 * model's guarded transition() and is stored with its event, only if the call is still as
 * we left it (a worker whose lease was taken over changes nothing).
 */
export interface CallMover {
  state(): CallState;
  /**
   * Moves the call; false when it changed under us (lease taken over).
   * Throws IllegalTransitionError for an edge the call model does not draw (a bug).
   */
  move(to: CallState, details?: MoveDetails): Promise<boolean>;
  /**
   * A bug was found (an illegal edge, here or in the attempt's own machine): the call ends
   * `failed` with the reason, logged as an error. Never carries on as if nothing happened.
   */
  failLoudly(error: IllegalTransitionError): Promise<void>;
}

export interface CallMoverDeps {
  store: Store;
  clock: Clock;
  log: Logger;
}

export function createCallMover(d: CallMoverDeps, call: { id: string; attempts: number }, start: CallState): CallMover {
  let state = start;
  const attempt = call.attempts;
  const write = async (to: CallState, details: MoveDetails) => {
    const at = d.clock();
    const moved = await d.store.writes.run(() =>
      d.store.calls.move(call.id, {
        from: state,
        to,
        at,
        attempt,
        ...details,
        answered: to === 'answered',
        acknowledged: to === 'acknowledged',
        finished: isFinal(to),
      }),
    );
    if (!moved) {
      d.log.warn({ call: call.id, from: state, to }, 'call changed under us (lease taken over); leaving it');
      return false;
    }
    d.log.info({ call: call.id, attempt, from: state, to, sipCode: details.sipCode ?? null, reason: details.reason }, 'call state');
    state = to;
    return true;
  };
  return {
    state: () => state,
    async move(to, details = {}) {
      transition(state, to);
      return write(to, details);
    },
    async failLoudly(error) {
      d.log.error({ call: call.id, attempt, state, err: error }, 'bug: illegal transition; the call ends failed');
      // Every state a worker holds may end `failed` (the call model draws that edge), so
      // this write is itself legal; a call no longer held is left to whoever holds it.
      if (isInProgress(state)) await write('failed', { reason: `internal error: ${error.message}` });
    },
  };
}
