/**
 * SIP transport for sip.js 0.21 on a server: our own UDP and TCP transports (sip.js ships
 * only a WebSocket one) and every correction of sip.js behaviour that has to happen on the
 * wire. The user agent (../ua) imports this folder only through this file.
 *
 * What we patch in sip.js, and why (one list: add a line here with every new patch)
 *
 *  1. No retransmission over UDP. sip.js leaves out Timers A, E and G ("FIXME: Timer A …
 *     not implemented"): a lost INVITE failed after 32 s. retransmit.ts runs RFC 3261 §17.1
 *     below sip.js: A/E resend, B/F give a locally made 408 (§8.1.3.1), duplicate finals
 *     are absorbed and our ACK resent (§17.1.1.2, §13.2.2.4), our 2xx to a far-end
 *     re-INVITE resent until its ACK (§13.3.1.4). On TCP only B and F run.
 *  2. forceRport (ua/telephone.ts): without it sip.js dropped responses whose Via names a
 *     port; with it the PBX answers to our source address (RFC 3581).
 *  3. Via port out (message-peek.ts addViaPort): sip.js writes a sent-by without a port;
 *     a PBX without rport answers to the port in Via (§18.2.1), so ours is added on send.
 *  4. Via port in (message-peek.ts stripViaPort): sip.js compares a response's Via host to
 *     its own `viaHost` as written and drops one carrying a port (its §18.1.2 check), so the
 *     port is taken off again before sip.js sees the response. `viaHost` is bracketed for
 *     IPv6 (ua/telephone.ts) for the same comparison.
 *  5. Contact port (ua/telephone.ts): sip.js leaves the port out of Contact; it is set to
 *     the port we listen on (transport.localPort()) once the transport is up.
 *  6. Contact `;ob` (message-peek.ts dropContactOb) and `Supported: outbound` (dropOutboundTag):
 *     sip.js claims RFC 5626 outbound; we are no outbound client, so both go on the wire.
 *  7. One destination (transport-base.ts): `Transport.send(message)` takes no address, so
 *     one transport talks to one server, the PBX.
 *  8. TCP (tcp-transport.ts, tcp-listener.ts, stream-framer.ts, response-routes.ts):
 *     Content-Length framing (§18.3), a listener on the Contact port for connections the
 *     PBX opens (§18.2.2, §12.2), responses on the connection their request came in on.
 *  9. No retry here (tcp-transport.ts): a connect is one attempt; a failure or a lost
 *     connection is reported (connect() rejects, state Disconnected, send() rejects), and
 *     only the trunk supervisor retries (src/calls/index.ts). sip.js's own reconnection
 *     (UserAgentOptions.reconnectionAttempts) stays at its default, 0.
 * 10. Shutdown bounds (ua/stop-wait.ts, ua/telephone.ts, ua/registration.ts, ua/place-call.ts):
 *     `ua.stop()` waits for transactions a silent PBX never ends, and their timers (64·T1)
 *     outlived a stop that gave up waiting. A stopping trunk waits 4·T1 for its un-REGISTER,
 *     CANCEL or BYE, then disposes sip.js's core and this transport: every timer is cancelled
 *     (retransmit.ts starts none after close()) and the process exits at once.
 * 11. A BYE's end (ua/place-call.ts): sip.js calls the session Terminated as soon as the BYE
 *     is sent; we wait for its final response so a shutdown never cuts the BYE short (a
 *     stopping trunk within item 10's bound).
 * 12. Allow (ua/place-call.ts, invite-extensions.ts withOurAllow): the Inviter writes a fixed
 *     Allow without UPDATE and PRACK; the request's header is rewritten before it is sent.
 * 13. UPDATE (ua/update-server.ts): sip.js's core answers 405 to UPDATE (RFC 3311) before any
 *     dialog sees it; its `receiveRequest` is wrapped so our calls answer it (session
 *     refresh, SDP offer) through sip.js's own non-INVITE server transaction.
 * 14. Our 200 to a re-INVITE (ua/session-upkeep.ts): sip.js adds only Contact; its
 *     `onInviteRequest` is wrapped so the 200 names the agreed Session-Expires (RFC 4028 §9).
 * 15. INVITE again after 421/422 (ua/place-call.ts): a new Inviter given the Call-ID and the
 *     next CSeq through `params` (untyped, read by sip.js at run time).
 * 16. The media handler (ua/media-handler.ts) implements `rollbackDescription`, so sip.js's
 *     488 to an offer we cannot take leaves the offer/answer state as it was.
 * 17. REGISTER (ua/registration.ts): sip.js's Registerer is not used. It follows 423 by
 *     itself without bound and without telling its caller, and leaves register() unsettled
 *     on a 200 it cannot match, so the trunk never came up; our client over sip.js's core
 *     reports every outcome and bounds the 423 loop (RFC 3261 §10.2.8).
 * 18. Digest per realm (digest-realms.ts): sip.js answered one challenge per request and
 *     called a 401 (registrar realm) followed by a 407 (proxy realm) an "authentication
 *     loop"; credentials are now kept per header and realm and both are sent (§22.3).
 * 19. 3xx Contacts (redirect-contacts.ts): sip.js drops a whole response whose Contact is
 *     not sip:/sips: (a carrier's `tel:` in a 302), so the redirect was never seen; only the
 *     SIP Contacts of a 3xx reach it.
 * 20. Responses to the PBX's requests over UDP (udp-transport.ts, via-return.ts): sip.js
 *     hands them to send() like any message; they go where the request's Via/rport says
 *     (§18.2.2, RFC 3581), not to sip.server, and a retransmitted BYE gets our same 200
 *     (retransmit.ts, Timer J §17.2.2) instead of sip.js's 481 for a dialog it has ended.
 * 21. TLS (tls-transport.ts): Via `SIP/2.0/TLS` comes from `protocol`; sip.js has no TLS
 *     transport of its own. Via and Contact name our connection's own local port, since we
 *     hold no certificate to listen with (ua/telephone.ts sets Contact `transport=tls`).
 * 22. Where a request came from (received-param.ts): sip.js keeps no source address; every
 *     request's top Via gets `received=<source>` when its sent-by names another host
 *     (RFC 3261 §18.2.1), so the voice desk (ua/inbound.ts) answers only its trunk's address.
 *     Incoming INVITEs to another user part than ours are given ours before sip.js's
 *     Request-URI check (ua/inbound.ts acceptAnyUser), and ua/media-handler.ts answers an
 *     INVITE's offer (ua/answer-call.ts).
 * 23. A request we could not send (transport-base.ts sendFailure): sip.js answers it with a
 *     bare 503 of its own that drops the transport's error; the cause is kept per Call-ID
 *     and ua/invite-transaction.ts makes it the call's reason.
 *
 * The sip.js types this layer implements come through one adapter, sip-js.ts.
 */
import './digest-realms';
import { TcpTransport } from './tcp-transport';
import { TlsTransport } from './tls-transport';
import { SipTransportBase } from './transport-base';
import { UdpTransport } from './udp-transport';

export { advertisedAddress, isWildcard } from './local-address';
export type { SipTransportOptions } from './transport-base';
export { SipTransportBase };
export { TlsCertificateError } from './tls-transport';
export { TcpTransport, TlsTransport, UdpTransport };

/** Why a message of this Call-ID could not be sent through the UA's transport, once (item 23). */
export function sendFailure(transport: unknown, callId: string): string | undefined {
  return transport instanceof SipTransportBase ? transport.sendFailure(callId) : undefined;
}

/** The class sip.js builds (UserAgentOptions.transportConstructor) for sip.transport. */
export const transportFor = (kind: 'udp' | 'tcp' | 'tls') => (kind === 'tls' ? TlsTransport : kind === 'tcp' ? TcpTransport : UdpTransport);
