import { randomUUID } from 'node:crypto';
import { Core, URI, type UserAgent } from 'sip.js';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import { LOCAL_TIMEOUT_REASON } from '../transport/retransmit';
import type { ProbeResult } from './options-probe';

const BACKOFF_S = [1, 2, 5, 10, 30, 60];
/** 423 answers followed in a row before we call it a loop (RFC 3261 §10.2.8 allows a retry). */
const MAX_423 = 3;

/** What the trunk shows about registration (TrunkStatus): registered, or why not. */
export interface RegistrationStatus {
  registered: boolean;
  /** The last failure ("423 Interval Too Brief loop (Min-Expires 3600)", "408 …"); null once registered. */
  error: string | null;
}

/**
 * `sip.register = true`: our own REGISTER client over sip.js's core (not sip.js's Registerer:
 * it follows a 423 by itself with no way to bound it or to learn the outcome, and a 200 whose
 * Contact it cannot match leaves its register() promise unsettled, so our start hung).
 * Digest (401/407) is answered by sip.js's UserAgentClient (transport/digest-realms.ts).
 *
 * Every attempt ends in exactly one outcome, reported by `status()` and logged once per
 * change: 2xx (registered, refreshed before expiry), 423 (retried with Min-Expires, at most
 * MAX_423 times, §10.2.8), any other final or our Timer F's local 408 (registered again with
 * backoff; a 5xx's Retry-After lengthens the wait, §20.33).
 */
export interface Registration {
  /** Resolves after the first attempt's outcome, registered or not (calls are tried anyway), or on stop(). */
  start(): Promise<void>;
  status(): RegistrationStatus;
  /** Un-REGISTERs when registered; bounded (`stopBoundMs`) whatever the registrar does. */
  stop(): Promise<void>;
}

export interface RegistrationOptions {
  /** The address-of-record's user: always sip.username (RFC 3261 §10.2: To is the AOR). */
  user: string;
  domain: string;
  expiresS: number;
  /** 64·T1: how long one REGISTER may stay unanswered before we give it up ourselves. */
  transactionMs: number;
  /** How long stop() waits for the un-REGISTER's answer (ua/stop-wait.ts); 2 s when absent. */
  stopBoundMs?: number;
  log: Logger;
  /**
   * Every REGISTER's outcome, refreshes included, as a probe's (trunks/trunk-monitor.ts: a
   * registering trunk's state follows its REGISTERs as well as its OPTIONS).
   */
  onOutcome?: (r: ProbeResult) => void;
}

export function createRegistration(ua: UserAgent, o: RegistrationOptions): Registration {
  const core = ua.userAgentCore;
  const aor = new URI('sip', o.user, o.domain);
  const registrar = new URI('sip', '', o.domain);
  // One Call-ID and From tag for every REGISTER to this registrar (RFC 3261 §10.2).
  const params = { callId: randomUUID(), cseq: 0, fromTag: randomUUID().slice(0, 8) };
  let expiresS = o.expiresS;
  let stopping = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let current: RegistrationStatus = { registered: false, error: null };
  let logged = '';
  /** Ends the REGISTER in flight as unanswered: stop() must not wait for a silent registrar's Timer F. */
  let giveUpPending: (() => void) | null = null;

  const report = (next: RegistrationStatus, fields: Record<string, unknown> = {}) => {
    current = next;
    const key = `${next.registered}|${next.error}`;
    if (key === logged) return;
    logged = key;
    if (next.registered) o.log.info({ expiresS, ...fields }, 'sip registered');
    else o.log.warn({ error: next.error, ...fields }, 'sip registration failed');
  };

  /** One REGISTER transaction (digest included), settled once by its final response or our bound. */
  const send = (expires: number): Promise<Core.IncomingResponseMessage | null> =>
    new Promise((resolve) => {
      let done = false;
      const settle = (m: Core.IncomingResponseMessage | null) => {
        if (done) return;
        done = true;
        clearTimeout(bound);
        resolve(m);
      };
      // Timer F gives a local 408 after 64·T1; this bound only covers a core that never reports.
      const bound = setTimeout(() => settle(null), o.transactionMs + 1000);
      giveUpPending = () => settle(null);
      params.cseq += 1;
      const contact = `${ua.contact.toString({ register: true })};expires=${expires}`;
      const request: Core.OutgoingRequestMessage = core.makeOutgoingRequestMessage(Core.C.REGISTER, registrar, aor, aor, params, [
        `Contact: ${contact}`,
        `Expires: ${expires}`,
        'Allow: ACK,CANCEL,INVITE,BYE,OPTIONS,INFO,PRACK',
      ]);
      const final = (r: { message: Core.IncomingResponseMessage }) => {
        params.cseq = request.cseq; // the digest retry raised it (RFC 3261 §10.2: CSeq rises)
        settle(r.message);
      };
      try {
        core.register(request, { onAccept: final, onReject: final, onRedirect: final });
      } catch (e) {
        o.log.warn({ error: describeError(e) }, 'sip REGISTER could not be sent');
        settle(null);
      }
    });

  const attempt = async (): Promise<void> => {
    timer = null;
    let tooBrief = 0;
    for (;;) {
      const started = performance.now();
      const r = await send(expiresS);
      if (stopping) return;
      const code = r?.statusCode ?? 408;
      o.onOutcome?.(registerOutcome(r, performance.now() - started));
      const reason = r ? `${code} ${r.reasonPhrase ?? ''}`.trim() : '408 no response to REGISTER';
      if (r && code >= 200 && code < 300) {
        failures = 0;
        const granted = grantedExpires(r, ua.contact.uri, expiresS);
        report({ registered: true, error: null }, { grantedS: granted });
        // Refresh ahead of the lifetime (RFC 3261 §10.2.4): halfway for short ones, 30 s early for long ones.
        schedule(granted > 60 ? granted - 30 : granted / 2);
        return;
      }
      if (code === 423) {
        const min = Number(r?.getHeader('min-expires'));
        if (++tooBrief <= MAX_423 && Number.isFinite(min) && min > expiresS) {
          o.log.info({ from: expiresS, to: min }, 'sip registrar wants a longer lifetime (423): registering again');
          expiresS = min;
          continue;
        }
        // §10.3 step 7: a 423 MUST carry Min-Expires; without one there is nothing to follow.
        const minText = r?.getHeader('min-expires');
        return failed(minText ? `${reason} loop (Min-Expires ${minText})` : `${reason} without Min-Expires`, null);
      }
      return failed(reason, code === 500 || code === 503 ? Number.parseInt(r?.getHeader('retry-after') ?? '', 10) : null);
    }
  };

  const failed = (error: string, retryAfterS: number | null) => {
    report({ registered: false, error });
    const backoff = BACKOFF_S[Math.min(failures++, BACKOFF_S.length - 1)]!;
    schedule(retryAfterS && retryAfterS > backoff ? retryAfterS : backoff);
  };

  const schedule = (delayS: number) => {
    if (stopping) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void attempt(), delayS * 1000);
  };

  return {
    start: attempt,
    status: () => current,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      giveUpPending?.();
      if (!current.registered) return;
      current = { registered: false, error: null };
      // A registrar that never answers the un-REGISTER must not hold a stopping appliance
      // (ua/stop-wait.ts). Given up, its own bound (64·T1 + 1 s) goes too: that timer alone
      // kept the process alive 33 s after it stopped. telephone.stop() ends the transaction.
      await until(send(0), o.stopBoundMs ?? 2000);
      giveUpPending?.();
    },
  };
}

/** A REGISTER's final as a probe result: made on our side (no raw text, our Timer F's 408) is no answer. */
function registerOutcome(r: Core.IncomingResponseMessage | null, rttMs: number): ProbeResult {
  if (!r) return { answered: false, failure: 'timeout', reason: 'no response to REGISTER', rttMs };
  const code = r.statusCode ?? 0;
  const reason = r.reasonPhrase ?? '';
  if (!r.data || (code === 408 && reason === LOCAL_TIMEOUT_REASON)) return { answered: false, failure: code === 408 ? 'timeout' : 'transport', reason, rttMs };
  return { answered: true, code, reason, rttMs };
}

/** The lifetime the registrar granted us: our Contact's expires, else Expires, else what we asked. */
function grantedExpires(r: Core.IncomingResponseMessage, ours: URI, asked: number): number {
  // The 200 lists every binding of the AOR (§10.3 step 8); ours is the one with our user and port.
  const bindings = r.getHeaders('contact').map((_: string, i: number) => r.parseHeader('contact', i) as { uri: URI; getParam(n: string): string | undefined } | undefined);
  const mine = bindings.find((c) => c?.uri.user === ours.user && (c?.uri.port ?? 5060) === (ours.port ?? 5060)) ?? bindings[0];
  const e = Number(mine?.getParam('expires'));
  if (Number.isFinite(e) && e > 0) return e;
  const header = Number(r.getHeader('expires'));
  return Number.isFinite(header) && header > 0 ? header : asked;
}
