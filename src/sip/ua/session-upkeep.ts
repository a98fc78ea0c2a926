import type { Core, Session } from 'sip.js';
import type { Logger } from '../../log';
import type { MediaHandler } from './media-handler';
import { createSessionTimer, parseSessionExpires, type SessionInterval } from './session-timer';
import type { UpdateAnswer, UpdateServer } from './update-server';

export interface SessionUpkeepOptions {
  /** Our call: an Inviter, or the Invitation the voice desk answered (ua/answer-call.ts). */
  inviter: Session;
  handler: MediaHandler;
  callId: string;
  /** The 200 to our INVITE (or, as `uas`, our 200 to theirs): its Session-Expires starts the timer. */
  answer: { getHeader(name: string): string | undefined };
  /** Our part in the INVITE that set up the call; `uac` unless we answered it. */
  role?: 'uac' | 'uas';
  minSeS: number;
  updates: UpdateServer;
  /** The PBX no longer knows the session (408/481 to a refresh): hang up. */
  lost(why: string): void;
  log: Logger;
}

/**
 * What keeps an answered call alive on the PBX's side (ua/session-timer.ts for the rules):
 * our refreshes (a re-INVITE repeating our last SDP), the PBX's own refreshes by re-INVITE
 * (sip.js answers; we add the agreed Session-Expires to its 200, RFC 4028 §9) or by UPDATE
 * (ua/update-server.ts; an offer in it is applied like a re-INVITE's). `stop()` at the end
 * of the call.
 */
export function keepSessionAlive(o: SessionUpkeepOptions): { stop(): void } {
  const timer = createSessionTimer({
    minSeS: o.minSeS,
    log: o.log,
    lost: o.lost,
    refresh: (headers) =>
      new Promise((resolve, reject) => {
        o.handler.repeatLastOffer();
        const answered = (r: { message: Core.IncomingResponseMessage }) =>
          resolve({ status: r.message.statusCode ?? 500, sessionExpires: r.message.getHeader('session-expires'), minSe: r.message.getHeader('min-se') });
        o.inviter.invite({ requestOptions: { extraHeaders: headers }, requestDelegate: { onAccept: answered, onReject: answered } }).catch(reject);
      }),
  });
  timer.negotiated(parseSessionExpires(o.answer.getHeader('session-expires')), o.role ?? 'uac');

  /** Our 2xx to a PBX refresh names the interval it agreed to; unnamed, the PBX refreshes (§9). */
  const agreed = (interval: SessionInterval) => {
    timer.negotiated(interval, 'uas');
    return [`Session-Expires: ${interval.seconds};refresher=${interval.refresher ?? 'uac'}`, 'Require: timer'];
  };

  // sip.js answers a re-INVITE with only its Contact as extra header: ours join its 200.
  // `onInviteRequest` is protected in sip.js's types, a plain method at run time.
  const session = o.inviter as unknown as { onInviteRequest(request: Core.IncomingInviteRequest): void };
  const answerReInvite = session.onInviteRequest.bind(o.inviter);
  session.onInviteRequest = (request) => {
    const interval = parseSessionExpires(request.message.getHeader('session-expires'));
    if (interval) {
      const accept = request.accept.bind(request);
      request.accept = (options) => accept({ statusCode: 200, ...options, extraHeaders: [...(options?.extraHeaders ?? []), ...agreed(interval)] });
    }
    answerReInvite(request);
  };

  const unregister = o.updates.register(o.callId, async (update): Promise<UpdateAnswer> => {
    const answer = update.offer === null ? { sdp: null } : await o.handler.answerUpdate(update.offer);
    // RFC 3311 §5.2: an offer while ours is open is 491, while theirs is 500 (with a retry).
    if (answer === 'ours-pending') return { status: 491, headers: [] };
    if (answer === 'theirs-pending') return { status: 500, headers: [`Retry-After: ${1 + Math.floor(Math.random() * 10)}`] };
    if (answer === 'unacceptable') return { status: 488, headers: [] };
    const interval = parseSessionExpires(update.header('session-expires'));
    return { status: 200, sdp: answer.sdp, headers: interval ? agreed(interval) : [] };
  });

  return {
    stop() {
      timer.stop();
      unregister();
    },
  };
}
