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
 *  6. Contact `;ob` (message-peek.ts dropContactOb): sip.js appends the RFC 5626 outbound
 *     flag; we are no outbound client, so it is removed on the wire.
 *  7. One destination (transport-base.ts): `Transport.send(message)` takes no address, so
 *     one transport talks to one server, the PBX.
 *  8. TCP (tcp-transport.ts, tcp-listener.ts, stream-framer.ts, response-routes.ts):
 *     Content-Length framing (§18.3), a listener on the Contact port for connections the
 *     PBX opens (§18.2.2, §12.2), responses on the connection their request came in on.
 *  9. No retry here (tcp-transport.ts): a connect is one attempt; a failure or a lost
 *     connection is reported (connect() rejects, state Disconnected, send() rejects), and
 *     only the trunk supervisor retries (src/calls/index.ts). sip.js's own reconnection
 *     (UserAgentOptions.reconnectionAttempts) stays at its default, 0.
 * 10. Shutdown bounds (ua/telephone.ts, ua/registration.ts): `ua.stop()` and
 *     `registerer.dispose()` wait for transactions a silent PBX never ends; both are bounded.
 * 11. A BYE's end (ua/place-call.ts): sip.js calls the session Terminated as soon as the BYE
 *     is sent; we wait for its final response so a shutdown never cuts the BYE short.
 *
 * The sip.js types this layer implements come through one adapter, sip-js.ts.
 */
import { TcpTransport } from './tcp-transport';
import { UdpTransport } from './udp-transport';

export { advertisedAddress, isWildcard } from './local-address';
export type { SipTransportBase, SipTransportOptions } from './transport-base';
export { TcpTransport, UdpTransport };

/** The class sip.js builds (UserAgentOptions.transportConstructor) for sip.transport. */
export const transportFor = (kind: 'udp' | 'tcp') => (kind === 'tcp' ? TcpTransport : UdpTransport);
