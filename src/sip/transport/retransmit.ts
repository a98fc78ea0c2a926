import { peek, type Peek } from './message-peek';

/**
 * RFC 3261 §17.1 client transaction timers, which sip.js 0.21 leaves out for unreliable
 * transports ("FIXME: Timer A … not implemented"). The transport reports every message it
 * sends and receives; this decides what goes on the wire again and what sip.js sees.
 *
 *   INVITE      Timer A: resend after T1, 2·T1, 4·T1 … (UDP only)   §17.1.1.2
 *               Timer B: 64·T1 without any response → local 408      §17.1.1.2, §8.1.3.1
 *               any 1xx stops both (the ring timeout is the TU's business)
 *   non-INVITE  Timer E: resend after T1, doubling up to T2; after a 1xx every T2 (UDP only)
 *               Timer F: 64·T1 without a final response → local 408  §17.1.2.2
 *   responses   a final response seen again for the same branch is absorbed; for INVITE the
 *               ACK we sent is sent again (§17.1.1.2 for non-2xx, §13.2.2.4 for 2xx).
 *   our 2xx     to an INVITE from the far end (a re-INVITE, e.g. hold) is resent after T1,
 *               doubling up to T2, until its ACK arrives or 64·T1 passed (§13.3.1.4; UDP only)
 *   our final   to a far-end non-INVITE (BYE, OPTIONS, INFO…) is kept for Timer J, 64·T1: a
 *               retransmitted request gets it again and never reaches sip.js, which after a
 *               BYE has no dialog left and would answer 481 (§17.2.2; UDP only)
 *
 * On TCP (reliable) only Timers B and F run: the stream does the resending (§17.1.1.2).
 */
export interface RetransmitOptions {
  t1Ms: number;
  t2Ms: number;
  reliable: boolean;
  /** Puts bytes on the wire again, as they were. */
  resend(message: string): void;
  /** No final response in time: hand this locally made 408 up as if received. */
  timedOut(response: string): void;
}

export interface Retransmitter {
  /** Every message the transport put on the wire. */
  sent(message: string): void;
  /** Every message received; false: absorbed, do not hand it to sip.js. */
  received(message: string): boolean;
  /** The message could not be sent at all: sip.js learns it from send(); stop its timers. */
  abandon(message: string): void;
  /** Client transactions still waiting for a final response. */
  pending(): number;
  /** Cancels every timer; from then on nothing is tracked (a closed transport sends nothing). */
  close(): void;
}

interface ClientTx {
  message: string;
  invite: boolean;
  interval: number;
  resendTimer: ReturnType<typeof setTimeout> | null;
  giveUpTimer: ReturnType<typeof setTimeout> | null;
}

const key = (p: Peek) => `${p.branch} ${p.method}`;

/** The reason phrase of our own 408: how the UA tells it from a PBX's (trunks/trunk-route.ts: a trunk failure). */
export const LOCAL_TIMEOUT_REASON = 'Request Timeout (no response)';

/** The 408 a UAC core must assume when a transaction times out (RFC 3261 §8.1.3.1). */
export function localTimeoutResponse(request: string): string {
  const head = request.slice(0, request.indexOf('\r\n\r\n'));
  const keep = head.split('\r\n').filter((l) => /^(via|v|from|f|to|t|call-id|i|cseq):/i.test(l));
  return [`SIP/2.0 408 ${LOCAL_TIMEOUT_REASON}`, ...keep, 'Content-Length: 0', '', ''].join('\r\n');
}

export function createRetransmitter(o: RetransmitOptions): Retransmitter {
  const clients = new Map<string, ClientTx>();
  /** Finals already handed up, kept 64·T1 so duplicates are absorbed (Timer D / K). */
  const finals = new Map<string, number>();
  /** ACKs by `Call-ID CSeq-number`, kept 64·T1 to answer retransmitted finals. */
  const acks = new Map<string, string>();
  /** Our 2xx answers to INVITEs awaiting their ACK, by `Call-ID CSeq-number`. */
  const answers = new Map<string, { resend: ReturnType<typeof setTimeout> | null; giveUp: ReturnType<typeof setTimeout> }>();
  /** Our finals to far-end non-INVITE requests, by branch and method (Timer J). */
  const served = new Map<string, string>();
  const expiring = new Set<ReturnType<typeof setTimeout>>();
  // A send after close() (sip.js still ending a session) fails; no timer may start for it.
  let closed = false;
  const settleAnswer = (id: string) => {
    const a = answers.get(id);
    if (!a) return;
    if (a.resend) clearTimeout(a.resend);
    clearTimeout(a.giveUp);
    answers.delete(id);
  };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      expiring.delete(t);
      fn();
    }, ms);
    expiring.add(t);
  };
  const stop = (tx: ClientTx, giveUpToo: boolean) => {
    if (tx.resendTimer) clearTimeout(tx.resendTimer);
    tx.resendTimer = null;
    if (giveUpToo && tx.giveUpTimer) clearTimeout(tx.giveUpTimer);
    if (giveUpToo) tx.giveUpTimer = null;
  };
  const scheduleResend = (tx: ClientTx) => {
    tx.resendTimer = setTimeout(() => {
      o.resend(tx.message);
      tx.interval = tx.invite ? tx.interval * 2 : Math.min(tx.interval * 2, o.t2Ms);
      scheduleResend(tx);
    }, tx.interval);
  };

  return {
    sent(message) {
      if (closed) return;
      const p = peek(message);
      if (!p) return;
      if (p.kind === 'response') {
        if (!o.reliable && p.method !== 'INVITE' && p.status >= 200 && !served.has(key(p))) {
          const k = key(p);
          served.set(k, message);
          later(64 * o.t1Ms, () => served.delete(k));
          return;
        }
        if (o.reliable || p.method !== 'INVITE' || p.status < 200 || p.status >= 300) return;
        const id = `${p.callId} ${p.cseq}`;
        if (answers.has(id)) return;
        let interval = o.t1Ms;
        const entry = {
          resend: null as ReturnType<typeof setTimeout> | null,
          giveUp: setTimeout(() => settleAnswer(id), 64 * o.t1Ms),
        };
        const again = () => {
          entry.resend = setTimeout(() => {
            o.resend(message);
            interval = Math.min(interval * 2, o.t2Ms);
            again();
          }, interval);
        };
        answers.set(id, entry);
        again();
        return;
      }
      if (p.method === 'ACK') {
        const id = `${p.callId} ${p.cseq}`;
        acks.set(id, message);
        later(64 * o.t1Ms, () => acks.delete(id));
        return;
      }
      const k = key(p);
      if (clients.has(k)) return; // sip.js re-sent it itself (e.g. its own timer)
      const tx: ClientTx = { message, invite: p.method === 'INVITE', interval: o.t1Ms, resendTimer: null, giveUpTimer: null };
      clients.set(k, tx);
      if (!o.reliable) scheduleResend(tx);
      tx.giveUpTimer = setTimeout(() => {
        stop(tx, true);
        clients.delete(k);
        o.timedOut(localTimeoutResponse(message));
      }, 64 * o.t1Ms);
    },
    received(message) {
      const p = peek(message);
      if (!p) return true;
      if (p.kind === 'request') {
        if (p.method === 'ACK') settleAnswer(`${p.callId} ${p.cseq}`);
        const answered = served.get(key(p));
        if (answered) {
          o.resend(answered);
          return false;
        }
        return true;
      }
      const k = key(p);
      const tx = clients.get(k);
      if (p.status < 200) {
        if (!tx) return true;
        if (tx.invite) stop(tx, true); // §17.1.1.2: Proceeding, no more A or B
        else if (!o.reliable && tx.resendTimer) {
          // §17.1.2.2: in Proceeding, retransmit every T2
          stop(tx, false);
          tx.interval = o.t2Ms;
          scheduleResend(tx);
        }
        return true;
      }
      const finalKey = `${k} ${p.status}`;
      if (tx) {
        stop(tx, true);
        clients.delete(k);
        finals.set(finalKey, 1);
        later(64 * o.t1Ms, () => finals.delete(finalKey));
        return true;
      }
      if (!finals.has(finalKey)) return true; // not ours to judge: sip.js decides
      if (p.method === 'INVITE') {
        const ack = acks.get(`${p.callId} ${p.cseq}`);
        if (ack) o.resend(ack);
      }
      return false;
    },
    abandon(message) {
      const p = peek(message);
      if (!p || p.kind !== 'request') return;
      const tx = clients.get(key(p));
      if (tx && tx.message === message) {
        stop(tx, true);
        clients.delete(key(p));
      }
    },
    pending: () => clients.size,
    close() {
      closed = true;
      for (const tx of clients.values()) stop(tx, true);
      clients.clear();
      for (const id of [...answers.keys()]) settleAnswer(id);
      for (const t of expiring) clearTimeout(t);
      expiring.clear();
      served.clear();
    },
  };
}
