import { Core, Registerer, URI, type UserAgent } from 'sip.js';

type IncomingResponseMessage = Core.IncomingResponseMessage;

/**
 * What one request to the trunk came back with. `answered`: the PBX sent a final response
 * of its own, whatever its code; otherwise no response came in time (64·T1, RFC 3261
 * §17.1.2.2 Timer F) or the request could not be sent at all (TCP refused, no route).
 */
export type ProbeResult =
  | { answered: true; code: number; reason: string; rttMs: number }
  | { answered: false; failure: 'timeout' | 'transport'; reason: string; rttMs: number };

/** "200 OK", "timeout", "transport error: …": one phrase for logs, status and the doctor. */
export function describeProbe(r: ProbeResult): string {
  if (r.answered) return `${r.code} ${r.reason}`.trim();
  return r.failure === 'timeout' ? 'timeout' : `transport error: ${r.reason}`;
}

/**
 * A final response made up on our side rather than received: sip.js hands up bare 408/503
 * messages (no raw text) for a transaction timeout and a transport error. Every 408 to a
 * non-INVITE becomes such a timeout inside sip.js, a PBX's own too: RFC 4320 §4.1 forbids
 * sending one (it only ever arrives after the client gave up), so it says nothing either.
 */
export function classify(message: IncomingResponseMessage, rttMs: number): ProbeResult {
  const code = message.statusCode ?? 0;
  const reason = message.reasonPhrase ?? '';
  if (!message.data) return { answered: false, failure: code === 408 ? 'timeout' : 'transport', reason, rttMs };
  return { answered: true, code, reason, rttMs };
}

export interface Bounded {
  /** Longest wait for a final response; beyond Timer F only if sip.js itself never reports. */
  boundMs: number;
}

/**
 * One out-of-dialog OPTIONS to the trunk (RFC 3261 §11): the PBX is reachable when it
 * answers with any final response. A 401/407 that sip.js cannot (or may not) answer with
 * credentials still comes back here as an answer: the PBX is there. Never rejects.
 */
export function sendOptions(ua: UserAgent, target: URI, o: Bounded): Promise<ProbeResult> {
  return bounded(o.boundMs, (settle, started) => {
    const core = ua.userAgentCore;
    const message = core.makeOutgoingRequestMessage(Core.C.OPTIONS, target, core.configuration.aor, target, {}, ['Accept: application/sdp'], undefined);
    const onFinal = ({ message }: { message: IncomingResponseMessage }) => settle(classify(message, performance.now() - started));
    core.request(message, { onAccept: onFinal, onReject: onFinal });
  });
}

/**
 * One REGISTER that removes only our own (doctor's) Contact (`expires=0`, RFC 3261
 * §10.2.2): the registrar checks the credentials as for any REGISTER, and the bindings of a
 * running appliance (another Contact port) are left alone. 2xx: credentials accepted.
 */
export function sendRegisterCheck(ua: UserAgent, o: Bounded): Promise<ProbeResult> {
  const registerer = new Registerer(ua);
  return bounded(o.boundMs, (settle, started) => {
    const onFinal = ({ message }: { message: IncomingResponseMessage }) => settle(classify(message, performance.now() - started));
    registerer
      .unregister({ requestDelegate: { onAccept: onFinal, onReject: onFinal } })
      .catch((e: unknown) => settle({ answered: false, failure: 'transport', reason: String((e as Error)?.message ?? e), rttMs: performance.now() - started }));
  }).finally(() => registerer.dispose().catch(() => undefined));
}

/** `target` for OPTIONS: the server itself, `sip:host:port` (the Request-URI names no user). */
export function serverUri(host: string, port: number): URI {
  return new URI('sip', undefined as unknown as string, host, port);
}

export function bounded(boundMs: number, send: (settle: (r: ProbeResult) => void, started: number) => void): Promise<ProbeResult> {
  const started = performance.now();
  return new Promise<ProbeResult>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (r: ProbeResult) => {
      clearTimeout(timer);
      resolve(r);
    };
    timer = setTimeout(() => settle({ answered: false, failure: 'timeout', reason: 'no final response', rttMs: boundMs }), boundMs);
    // A stopping appliance does not wait for a probe nobody needs any more.
    timer.unref?.();
    try {
      send(settle, started);
    } catch (e) {
      settle({ answered: false, failure: 'transport', reason: e instanceof Error ? e.message : String(e), rttMs: performance.now() - started });
    }
  });
}
