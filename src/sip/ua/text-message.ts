import { Core, type URI, type UserAgent } from 'sip.js';
import { requestSource } from '../transport/received-param';
import { bounded, classify, type Bounded, type ProbeResult } from './options-probe';

/**
 * Texts over SIP (docs/second-path.md "Texts through the PBX"): an out-of-dialog MESSAGE
 * (RFC 3428 §4) with a text/plain UTF-8 body, for PBXes and carriers that carry SMS as SIP
 * MESSAGE. sip.js's UserAgentClient answers a 401/407 with the trunk's credentials (RFC 3261
 * §22.2, §22.3), as for an INVITE. Like OPTIONS, the outcome is a ProbeResult: 2xx is
 * delivered to the PBX (RFC 3428 §7: 202 too, it only means it was taken on).
 */
export function sendTextMessage(ua: UserAgent, target: URI, text: string, o: Bounded & { extraHeaders: string[] }): Promise<ProbeResult> {
  return bounded(o.boundMs, (settle, started) => {
    const core = ua.userAgentCore;
    const body = { contentDisposition: 'render', contentType: 'text/plain;charset=UTF-8', content: text };
    const message = core.makeOutgoingRequestMessage(Core.C.MESSAGE, target, core.configuration.aor, target, {}, o.extraHeaders, body);
    const onFinal = ({ message }: { message: Core.IncomingResponseMessage }) => settle(classify(message, performance.now() - started));
    core.request(message, { onAccept: onFinal, onReject: onFinal });
  });
}

/** A text the PBX delivered to us as a MESSAGE. */
export interface InboundSipText {
  trunk: string;
  /** The From URI's user (the sender's number as the PBX wrote it). */
  from: string;
  body: string;
}

/**
 * The UserAgent's onMessage: a MESSAGE from the trunk's own addresses (its top Via's source,
 * as the voice desk checks an INVITE) with a text body is accepted (200) and handed on;
 * anything else gets 403 (a From header is anyone's to write: only the PBX vouches for it)
 * or 415 (RFC 3428 §7: a body type we do not read).
 */
export function inboundTextMessages(o: { trunk: string; addresses: () => ReadonlySet<string>; onText(text: InboundSipText): void }) {
  return (request: Core.IncomingRequestMessage, reply: (code: number) => void) => {
    const source = requestSource(request.getHeader('via'));
    if (source === null || !o.addresses().has(source)) return reply(403);
    const type = (request.getHeader('content-type') ?? '').toLowerCase();
    if (!type.startsWith('text/plain')) return reply(415);
    reply(200);
    const body = typeof request.body === 'string' ? request.body : '';
    o.onText({ trunk: o.trunk, from: request.from.uri.user ?? '', body });
  };
}
