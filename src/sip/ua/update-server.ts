import { Core, type UserAgent } from 'sip.js';
import { describeError, type Logger } from '../../log';

/**
 * UPDATE (RFC 3311) inside our calls' dialogs. sip.js 0.21 has no UPDATE: its core answers
 * 405 before any dialog sees one, so a PBX refreshing the session timer (RFC 4028 §9) or
 * changing the media with UPDATE got 405 and hung up. We take UPDATE off the core's
 * request path (its `receiveRequest`, after transaction matching, so a retransmitted UPDATE
 * gets the same answer from sip.js's own non-INVITE server transaction) and hand it to the
 * call whose Call-ID it carries. Everything else goes on to sip.js as before.
 */
export interface UpdateRequest {
  /** The SDP offer, or null for an UPDATE without body (a pure session refresh). */
  offer: string | null;
  header(name: string): string | undefined;
}

/** 200 with an optional SDP answer and extra headers, or a failure status (488, 491, 500). */
export type UpdateAnswer = { status: 200; sdp: string | null; headers: string[] } | { status: 488 | 491 | 500; headers: string[] };

export interface UpdateServer {
  /** Routes this call's UPDATEs to `answer` until the returned function is called. */
  register(callId: string, answer: (request: UpdateRequest) => Promise<UpdateAnswer>): () => void;
}

type CoreWithRequests = { receiveRequest(message: Core.IncomingRequestMessage): void };

export function createUpdateServer(ua: UserAgent, log: Logger): UpdateServer {
  const calls = new Map<string, (request: UpdateRequest) => Promise<UpdateAnswer>>();
  const core = ua.userAgentCore;
  // `receiveRequest` is private in sip.js's types, a plain method at run time.
  const patched = core as unknown as CoreWithRequests;
  const passOn = patched.receiveRequest.bind(core);
  patched.receiveRequest = (message) => {
    if (message.method !== 'UPDATE') return passOn(message);
    const answer = calls.get(message.callId);
    // Not one of our dialogs (or no To tag: UPDATE is only ever sent inside one, §5.1).
    if (!answer || !message.toTag) return void core.replyStateless(message, { statusCode: 481 });
    const uas = new Core.UserAgentServer(Core.NonInviteServerTransaction, core, message);
    const offer = message.body && /application\/sdp/i.test(message.getHeader('content-type') ?? '') ? message.body : null;
    answer({ offer, header: (name) => message.getHeader(name) })
      .then((a) => {
        if (a.status !== 200) return void uas.reject({ statusCode: a.status, extraHeaders: a.headers });
        // A 2xx to UPDATE is a target refresh: it carries our Contact (RFC 3311 §5.2).
        const extraHeaders = [`Contact: ${ua.contact.toString()}`, ...a.headers];
        const body = a.sdp === null ? undefined : { contentDisposition: 'session', contentType: 'application/sdp', content: a.sdp };
        uas.accept({ statusCode: 200, extraHeaders, body });
      })
      .catch((e) => {
        log.error({ error: describeError(e), callId: message.callId }, 'UPDATE could not be answered');
        uas.reject({ statusCode: 500 });
      });
  };
  return {
    register(callId, answer) {
      calls.set(callId, answer);
      return () => {
        if (calls.get(callId) === answer) calls.delete(callId);
      };
    },
  };
}
