import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SessionState, type Core, type Invitation, type URI, type UserAgent } from 'sip.js';
import { describeError, type Logger } from '../../log';
import { requestSource } from '../transport/received-param';
import { answerCall, type AnswerCallOptions, type InboundCall } from './answer-call';

/** What the trunk tells the desk about an INVITE before anything is answered. */
export interface InboundOffer {
  trunk: string;
  callId: string;
  /** Where the INVITE came from (its top Via's `received`, transport/received-param.ts). */
  source: string | null;
  /** The source is this trunk's server or outbound proxy (any port): the PBX sent it. */
  fromTrunk: boolean;
}

/**
 * Calls to the appliance (docs/telephony.md "Voice desk"), as the SIP side hands them over. sip/
 * never imports the desk: the appliance passes one of these to every trunk.
 */
export interface InboundDesk {
  /** 'take': answer it and run(); a refusal is answered 403 (counted by the desk). */
  admit(offer: InboundOffer): 'take' | 'refuse';
  /** The answered call, until it ends; `transferUri` makes the Refer-To of a stored number. */
  run(call: InboundCall, o: { trunk: string; transferUri(number: string): URI }): Promise<void>;
}

export interface InboundOptions extends AnswerCallOptions {
  trunk: string;
  desk: InboundDesk;
  /** The trunk's own addresses (sip.server and sip.outbound_proxy hosts, looked up at start). */
  addresses: () => ReadonlySet<string>;
  transferUri(number: string): URI;
}

/** The addresses a host name stands for (an IP address stands for itself); none when it does not resolve. */
export async function hostAddresses(hosts: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const host of hosts) {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isIP(bare)) out.add(bare);
    else for (const a of await lookup(bare, { all: true }).catch(() => [])) out.add(a.address);
  }
  return out;
}

/**
 * sip.js answers 404 to an INVITE whose Request-URI user is not ours (its §8.2.2.1 check);
 * the desk answers whatever extension the PBX routed to it, so an out-of-dialog INVITE is
 * given our user before sip.js looks (the PBX's dialled user plays no part in the desk). So is
 * a MESSAGE (ua/text-message.ts): a text reply is addressed to whatever number we sent from.
 * `methods`: those taken (INVITE with the desk on, MESSAGE with texts received).
 * `receiveRequest` is private in sip.js's types, a plain method at run time.
 */
export function acceptAnyUser(ua: UserAgent, methods: ReadonlySet<'INVITE' | 'MESSAGE'>): void {
  type CoreWithRequests = { receiveRequest(message: Core.IncomingRequestMessage): void };
  const core = ua.userAgentCore as unknown as CoreWithRequests;
  const passOn = core.receiveRequest.bind(ua.userAgentCore);
  core.receiveRequest = (message) => {
    // Only the methods something here takes: with the desk off an INVITE keeps sip.js's own 404.
    if (methods.has(message.method as 'INVITE' | 'MESSAGE') && !message.toTag && message.ruri && message.ruri.user !== ua.contact.uri.user) {
      const ruri = message.ruri.clone();
      ruri.user = ua.contact.uri.user;
      message.ruri = ruri;
    }
    passOn(message);
  };
}

/** The UserAgent's onInvite with the desk on: admitted calls are answered and run, the rest get 403. */
export function inboundInvites(o: InboundOptions): (invitation: Invitation) => void {
  return (invitation) => {
    const source = requestSource(invitation.request.getHeader('via'));
    const offer: InboundOffer = { trunk: o.trunk, callId: invitation.request.callId, source, fromTrunk: source !== null && o.addresses().has(source) };
    if (o.desk.admit(offer) !== 'take') {
      void invitation.reject({ statusCode: 403 }).catch(() => undefined);
      return;
    }
    void (async () => {
      const call = await answerCall(invitation, o);
      if (!call) return;
      try {
        await o.desk.run(call, { trunk: o.trunk, transferUri: o.transferUri });
      } finally {
        await call.hangUp('desk call over');
      }
    })().catch((e) => {
      // A bug in one desk call (an illegal menu edge, a store error) ends that call, never the process.
      o.log.error({ error: describeError(e), callId: invitation.request.callId }, 'voice desk call failed');
      if (invitation.state === SessionState.Initial) void invitation.reject({ statusCode: 500 }).catch(() => undefined);
    });
  };
}

export type { InboundCall };
