import { SessionState, type Session } from 'sip.js';
import { describeError, type Logger } from '../../log';
import { endedOrStopped } from './stop-wait';

export interface ByeWait {
  t1Ms: number;
  /** The dialer's shutdown signal: once aborted, the BYE is waited for at most `stopWaitMs` more. */
  signal?: AbortSignal;
  stopWaitMs: number;
}

/**
 * Our BYE on an outbound call (ua/place-call.ts), waited for: resolves once its final response
 * came (or our Timer F's local 408), at most 64·T1 (+100 ms). sip.js calls the session
 * Terminated as soon as the BYE is sent, so waiting for that would let a shutdown cut the BYE
 * short; a stopping appliance waits ua/stop-wait.ts's bound, time for the BYE to go out three
 * times. A session no longer established gets no BYE: its end (`terminated`) is waited for
 * the same way. Never rejects.
 */
export async function byeWaited(session: Session, terminated: Promise<void>, o: ByeWait, log: Logger): Promise<void> {
  const bound = 64 * o.t1Ms + 100;
  if (session.state !== SessionState.Established) return endedOrStopped(terminated, bound, o.signal, o.stopWaitMs);
  const answered = new Promise<void>((done) => {
    session.bye({ requestDelegate: { onAccept: () => done(), onReject: () => done() } }).catch((e) => {
      log.warn({ error: describeError(e) }, 'BYE failed');
      done();
    });
  });
  return endedOrStopped(answered, bound, o.signal, o.stopWaitMs);
}
