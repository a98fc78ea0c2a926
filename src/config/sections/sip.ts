import * as z from 'zod';
import { ipFamily, parseHostPort, withDefaultPort } from '../host-port';
import { duplicateNames, resolveTrunks, TRUNK_KEYS, trunkName, trunkNumbers, type ResolvedTrunk } from './sip-trunks';

const portRange = /^(\d{1,5})-(\d{1,5})$/;
// Sockets take addresses bare; brackets belong only where a port follows (sip.server).
const bare = (v: string) => !/^\[.*\]$/.test(v);
const bareMessage = 'write an IPv6 address without brackets, e.g. ::1';

/**
 * The trunk to the customer's PBX (issue: telephony). With `server` empty the dialer does
 * not start: calls stay queued and the appliance says so in its log.
 */
const sipFields = z
  .object({
    /** The trunk's name when `[sip]` itself is the one trunk (logs, /healthz checks.trunks, metrics). */
    name: trunkName.default('default'),
    /** PBX `host:port` every request goes to (the outbound proxy). Empty: no dialing. */
    server: z
      .string()
      .refine((v) => v === '' || isSipServer(v), 'expected host or host:port, e.g. 192.0.2.10:5060')
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
    /** `tls`: SIP over TLS (docs/telephony.md "SIP over TLS and SRTP"), the server usually on port 5061. */
    transport: z.enum(['udp', 'tcp', 'tls']).default('udp'),
    /** transport = "tls": a PEM file of the CA(s) the PBX's certificate must chain to; empty: the system's CAs. */
    tls_ca_file: z.string().default(''),
    /** transport = "tls": false skips the certificate check (name and issuer). Only by choice. */
    tls_verify: z.boolean().default(true),
    /** `sdes`: SRTP (AES_CM_128_HMAC_SHA1_80) keyed in the SDP (RFC 4568); a plain answer fails the call. */
    srtp: z.enum(['off', 'sdes']).default('off'),
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
    /**
     * Seconds an INVITE waits for any response at all (a 100 Trying is enough) before its
     * trunk counts as silent and the call moves to the next trunk (docs/telephony.md "SIP trunks:
     * several, in order"); 0: Timer B (64·T1) or the ring timeout, whichever comes first.
     */
    invite_timeout_s: z.number().int().min(0).max(600).default(0),
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
  .strict();

/**
 * One `[[sip.trunks]]` table (sip-trunks.ts): the trunk keys of `[sip]`, each optional
 * (taken from `[sip]` when left out) except `name` and `server`, plus `numbers`.
 */
const trunkTable = z
  .object(
    // Without [sip]'s defaults: a key a table leaves out must stay undefined to be taken from [sip].
    Object.fromEntries(TRUNK_KEYS.map((k) => [k, withoutDefault(sipFields.shape[k]).optional()])) as unknown as {
      [K in (typeof TRUNK_KEYS)[number]]: z.ZodOptional<z.core.$ZodType<z.output<(typeof sipFields.shape)[K]>>>;
    },
  )
  .extend({
    name: trunkName,
    server: z.string().refine(isSipServer, 'expected host or host:port, e.g. 192.0.2.10:5060'),
    numbers: trunkNumbers.optional(),
  })
  .strict();

export type TrunkTable = z.infer<typeof trunkTable>;

function withoutDefault(t: z.ZodType): z.ZodType {
  return t instanceof z.ZodDefault ? (t.unwrap() as z.ZodType) : t;
}

export const sipSection = sipFields
  .extend({
    /** Several trunks in order of preference (docs/telephony.md "SIP trunks: several, in order"); empty: `[sip]` is the one trunk. */
    trunks: z.array(trunkTable).default([]),
  })
  .strict()
  .superRefine((sip, ctx) => {
    if (sip.trunks.length > 0 && sip.server) {
      ctx.addIssue({
        code: 'custom',
        path: ['server'],
        message: 'sip.server and [[sip.trunks]] are both set: move this server into a [[sip.trunks]] table (keys left out there are taken from [sip])',
      });
    }
    for (const name of duplicateNames(sip.trunks.map((t) => t.name))) {
      ctx.addIssue({ code: 'custom', path: ['trunks'], message: `trunk name "${name}" is used twice: each [[sip.trunks]] needs its own name` });
    }
    // One socket family for SIP and RTP: it follows the server, so the bind address must match
    // (0.0.0.0 cannot reach an IPv6 PBX; :: means any IPv6 address).
    const have = ipFamily(sip.local_address);
    for (const [i, value] of [sip.server, ...sip.trunks.map((t) => t.server)].entries()) {
      const server = parseHostPort(withDefaultPort(value, 5060));
      const want = server ? ipFamily(server.host) : 0;
      if (want && have && want !== have) {
        const key = i === 0 ? 'sip.server' : `sip.trunks[${i - 1}].server`;
        ctx.addIssue({
          code: 'custom',
          path: ['local_address'],
          message: want === 6 ? `${key} is IPv6: bind an IPv6 address, e.g. :: or ::1` : `${key} is IPv4: bind an IPv4 address, e.g. 0.0.0.0`,
        });
      }
    }
  });

export type SipConfig = z.infer<typeof sipSection>;

/** `10000-10999` → [10000, 10999]. */
export function rtpPortRange(value: string): [number, number] {
  const m = portRange.exec(value)!;
  return [Number(m[1]), Number(m[2])];
}

/** One trunk: the `[sip]` keys with a trunk's own laid over them (sip-trunks.ts resolveTrunks). */
export type TrunkConfig = ResolvedTrunk<Omit<SipConfig, 'trunks'>>;

/** The trunks in order of preference; empty when none is configured (calls wait). */
export const sipTrunks = (sip: SipConfig): TrunkConfig[] =>
  resolveTrunks(sip).map((t) => ({ ...t, server: withDefaultPort(t.server, defaultSipPort(t.transport)) }));

/** RFC 3261 §19.1.2: a server named without a port is 5061 for SIP over TLS, 5060 otherwise. */
export const defaultSipPort = (transport: string): number => (transport === 'tls' ? 5061 : 5060);

/** A PBX address: `host:port`, or a host alone (its port then by transport, defaultSipPort). */
function isSipServer(v: string): boolean {
  return parseHostPort(withDefaultPort(v, 5060)) !== null;
}

/** Is there any trunk to dial through? (`sip.server` or `[[sip.trunks]]`.) */
export const trunkConfigured = (sip: Pick<SipConfig, 'server' | 'trunks'>): boolean => sip.server !== '' || sip.trunks.length > 0;
