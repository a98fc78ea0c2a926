/**
 * The transport layer's one contact with sip.js: the Transport contract our UDP and TCP
 * transports implement for it (sip.js 0.21 `api/transport.ts`). Everything else here is
 * plain RFC 3261 text handling that never sees sip.js. These used to be deep imports of
 * `sip.js/lib/api/...`; the package root exports them too, so nothing reaches into lib/.
 * A sip.js upgrade that changes this contract breaks here, in one file.
 */
export { EmitterImpl, TransportState, type Transport } from 'sip.js';
