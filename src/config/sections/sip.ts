import { isIP } from 'node:net';
import * as z from 'zod';
import { parseHostPort } from '../host-port';

const portRange = /^(\d{1,5})-(\d{1,5})$/;
// Sockets take addresses bare; brackets belong only where a port follows (sip.server).
const bare = (v: string) => !/^\[.*\]$/.test(v);
const bareMessage = 'write an IPv6 address without brackets, e.g. ::1';

/**
 * The trunk to the customer's PBX (issue: telephony). With `server` empty the dialer does
 * not start: calls stay queued and the appliance says so in its log.
 */
export const sipSection = z
  .object({
    /** PBX `host:port` every request goes to (the outbound proxy). Empty: no dialing. */
    server: z
      .string()
      .refine((v) => v === '' || parseHostPort(v) !== null, 'expected host:port, e.g. 192.0.2.10:5060')
      .default(''),
    /** Domain in the Request-URI, From and To; empty: the server's host. */
    domain: z.string().default(''),
    /** Our SIP user (Contact; the REGISTER's address-of-record, always; From unless from_user). */
    username: z.string().default('voice-alert'),
    /** Digest password for 401/407 challenges; empty: no credentials (IP-authenticated trunk). */
    password: z.string().default(''),
    /** Digest user name when it differs from `username`. */
    auth_username: z.string().default(''),
    /** true: REGISTER and refresh before expiry; false: IP-authenticated trunk. */
    register: z.boolean().default(false),
    /** Requested registration lifetime. */
    register_expires_s: z.number().int().min(60).max(86_400).default(600),
    /** User part of From; empty: `username`. */
    from_user: z.string().default(''),
    /** Caller name shown on the phone. */
    from_display: z.string().default('Voice Alert'),
    /**
     * P-Asserted-Identity on our INVITEs (RFC 3325 §9.1), the number a carrier trunk presents:
     * a user part ("+902120000000", written `<sip:user@domain>`) or a whole sip:/tel: URI.
     * Empty: no such header.
     */
    pai: z
      .string()
      .refine((v) => v === '' || /^(sips?|tel):[^\s<>]+$/.test(v) || /^[0-9A-Za-z+*#._-]+$/.test(v), 'expected a number or a sip:/tel: URI, e.g. +902120000000')
      .default(''),
    /** Privacy header on our INVITEs (RFC 3323 §4.2), e.g. "id" to hide the caller; empty: none. */
    privacy: z
      .string()
      .regex(/^$|^(none|header|session|user|id|critical)(;(none|header|session|user|id|critical))*$/, 'expected privacy values joined by ";", e.g. id or header;id')
      .default(''),
    /**
     * `host:port` every request is sent to, with a `Route: <sip:host:port;lr>` (RFC 3261 §8.1.2)
     * while `server`/`domain` stay the registrar and the Request-URI's domain. Empty: send to `server`.
     */
    outbound_proxy: z
      .string()
      .refine((v) => v === '' || parseHostPort(v) !== null, 'expected host:port, e.g. 192.0.2.20:5060')
      .default(''),
    /** Dialed before the 10-digit number, e.g. "0". */
    dial_prefix: z.string().regex(/^[0-9*#+]*$/).default(''),
    transport: z.enum(['udp', 'tcp']).default('udp'),
    /** Address our SIP and RTP sockets bind. */
    local_address: z.string().refine(bare, bareMessage).default('0.0.0.0'),
    /** SIP port we bind; 0: the OS picks one. */
    local_port: z.number().int().min(0).max(65_535).default(5060),
    /** Address put in Via, Contact and SDP (NAT); empty: local_address, or the route to the server. */
    public_address: z.string().refine(bare, bareMessage).default(''),
    /** RTP ports, `low-high`; each call takes one even port. */
    rtp_ports: z
      .string()
      .refine((v) => {
        const m = portRange.exec(v);
        return !!m && Number(m[1]) <= Number(m[2]) && Number(m[2]) <= 65_535;
      }, 'expected low-high, e.g. 10000-10999')
      .default('10000-10999'),
    /** RFC 3261 §17: round-trip estimate; retransmissions start at T1 and give up after 64*T1. */
    t1_ms: z.number().int().min(10).max(10_000).default(500),
    /** RFC 3261 §17.1.2.2: the cap on the non-INVITE retransmission interval. */
    t2_ms: z.number().int().min(10).max(60_000).default(4000),
    /**
     * RFC 4028 session timer we ask for in the INVITE (Session-Expires); the PBX may lower it,
     * down to our Min-SE. When the PBX makes us the refresher we re-INVITE a third of the way in.
     */
    session_expires_s: z.number().int().min(90).max(86_400).default(1800),
    /** The smallest session interval we accept (Min-SE, RFC 4028 §4); a 422's larger Min-SE wins. */
    min_se_s: z.number().int().min(90).max(86_400).default(90),
    /** Seconds between SIP OPTIONS probes of the trunk; one unanswered (64·T1) marks it down. 0: no probes. */
    options_interval_s: z.number().int().min(0).max(3600).default(30),
    /** Silence after the message, before BYE (calls.answer_delay_ms is the silence before it). */
    silence_ms: z.number().int().min(0).max(5000).default(200),
  })
  .strict()
  // One socket family for SIP and RTP: it follows the server, so the bind address must match
  // (0.0.0.0 cannot reach an IPv6 PBX; :: means any IPv6 address).
  .superRefine((sip, ctx) => {
    const server = parseHostPort(sip.server);
    const want = server ? isIP(server.host) : 0;
    const have = isIP(sip.local_address);
    if (want && have && want !== have) {
      ctx.addIssue({
        code: 'custom',
        path: ['local_address'],
        message: want === 6 ? 'sip.server is IPv6: bind an IPv6 address, e.g. :: or ::1' : 'sip.server is IPv4: bind an IPv4 address, e.g. 0.0.0.0',
      });
    }
  });

export type SipConfig = z.infer<typeof sipSection>;

/** `10000-10999` → [10000, 10999]. */
export function rtpPortRange(value: string): [number, number] {
  const m = portRange.exec(value)!;
  return [Number(m[1]), Number(m[2])];
}
