import { numberFormOf } from '../../phone';
import { SIPExtension, URI, UserAgent, type Invitation } from 'sip.js';
import { bracketHost, parseHostPort } from '../../config/host-port';
import { DEFAULT_MAX_CALL_S } from '../../config/sections/calls';
import { rtpPortRange, type SipConfig } from '../../config/sections/sip';
import { describeError, type Logger } from '../../log';
import { until } from '../../until';
import { VERSION } from '../../version';
import type { CallAudio, CallOutcome, CallProgress } from '../../call-model';
import { MediaHandler } from './media-handler';
import { dialFollowingRedirects } from './follow-redirects';
import { acceptAnyUser, hostAddresses, inboundInvites, type InboundDesk } from './inbound';
import type { MediaCheck } from './place-call';
import { SUPPORTED_EXTENSIONS } from './invite-extensions';
import { sendOptions, sendRegisterCheck, serverUri, type ProbeResult } from './options-probe';
import { inboundTextMessages, sendTextMessage, type InboundSipText } from './text-message';
import { createRegistration, type Registration } from './registration';
import { stopWaitMs } from './stop-wait';
import { createUpdateServer, type UpdateServer } from './update-server';
import { createRtpEngine, type RtpEngine } from '../rtp/engine';
import type { MediaCounts } from '../rtp/media-counters';
import type { AmdRequest } from './answer-analysis';
import { advertisedAddress, transportFor, type SipTransportBase, type SipTransportOptions } from '../transport';

/** How long start() waits for the first REGISTER's outcome. */
const FIRST_REGISTER_WAIT_MS = 4000;

export interface DialRequest {
  /** The stored number; sip.dial_prefix is put in front here (not of an extension). */
  number: string;
  /** Started once the INVITE is on the wire, awaited only after the answer. */
  audio: () => Promise<CallAudio>;
  acknowledgedAudio: () => Promise<CallAudio>;
  ringTimeoutMs: number;
  answerDelayMs: number;
  /** Longest the call may last once answered (calls.max_call_s; its default when absent); then we hang up. */
  maxCallMs?: number;
  progress: CallProgress;
  /** Aborting before the answer sends CANCEL and reports ABORTED; after it, the call plays on. */
  signal?: AbortSignal;
  /** Aborting after the answer hangs up now (a stopping appliance whose grace ran out). */
  hangUpSignal?: AbortSignal;
  /** The voice-path self-test: the stream's packet and echo counts, reported before dial() resolves. */
  mediaCheck?: MediaCheck;
  /** Voicemail detection on the answer (docs/telephony.md "Voicemail detection"); absent: none. */
  amd?: AmdRequest | null;
  /** What `on_machine = "leave_message"` leaves (CallAudioSource.forVoicemail); absent: `audio`. */
  voicemailAudio?: () => Promise<CallAudio>;
}

/**
 * The trunk to the PBX: one sip.js UserAgent over our transport, registered when
 * configured. MUST be started before dialing; stop() waits for the transport to close.
 */
export interface Telephone {
  start(): Promise<void>;
  dial(request: DialRequest): Promise<CallOutcome>;
  /** Transport's bound SIP port (tests, logs). */
  localPort(): number;
  /** Registered with the PBX right now; null for an IP trunk (sip.register = false). */
  registered(): boolean | null;
  /** Why the last REGISTER failed (423 loop, 403, local 408…); null when registered or an IP trunk. */
  registrationError(): string | null;
  /** One OPTIONS to the server (trunk monitoring, doctor); never rejects. */
  probe(): Promise<ProbeResult>;
  /** One SIP MESSAGE (RFC 3428) with `text` to the number, dialled as a call would be; never rejects. */
  sendText(number: string, text: string): Promise<ProbeResult>;
  /** One REGISTER with expires=0 for our own Contact: are the credentials accepted (doctor)? */
  checkRegister(): Promise<ProbeResult>;
  /** RTP packets sent and late pacer ticks since start (for /metrics). */
  mediaCounts(): MediaCounts;
  /**
   * Un-REGISTERs, ends the user agent and closes the transport, each step within
   * ua/stop-wait.ts's bound however silent the PBX; leaves no SIP timer running.
   */
  stop(): Promise<void>;
}

export interface TelephoneDeps {
  log: Logger;
  onWire?: SipTransportOptions['onWire'];
  /** Every RTP packet sent, by SIP Call-ID (the pacing benchmark). */
  onPacketSent?: (callId: string, at: number) => void;
  /**
   * An RTP engine shared by several trunks (one worker, one port range: trunks/trunk-set.ts);
   * its owner closes it. Absent: the telephone makes its own and closes it on stop().
   */
  rtp?: RtpEngine;
  /** Every REGISTER's outcome (sip.register = true), as a probe's: the trunk's state follows it. */
  onRegisterOutcome?: (r: ProbeResult) => void;
  /** The voice desk (docs/telephony.md "Voice desk"): INVITEs to us are offered to it; absent: refused with 603. */
  inbound?: InboundDesk;
  /** Texts the PBX delivers as MESSAGE (docs/second-path.md "Texts through the PBX"); absent: accepted and dropped, as sip.js does. */
  onText?: (text: InboundSipText) => void;
}

export function createTelephone(sip: Omit<SipConfig, 'trunks'>, silenceMs: number, deps: TelephoneDeps): Telephone {
  const registrar = parseHostPort(sip.server);
  if (!registrar) throw new Error('sip.server is not set');
  // In URIs an IPv6 host is written in brackets (RFC 3261 §25.1): sip:user@[::1].
  const domain = bracketHost(sip.domain || registrar.host);
  // Every request goes to the outbound proxy when there is one, else to the server (§8.1.2).
  const proxy = sip.outbound_proxy ? parseHostPort(sip.outbound_proxy) : null;
  const server = proxy ?? registrar;
  const identity = identityHeaders(sip, domain);
  const [low, high] = rtpPortRange(sip.rtp_ports);
  const log = deps.log.child({ component: 'sip' });
  // Media runs in its own thread (rtp/worker.ts), started with the first call.
  const rtp = deps.rtp ?? createRtpEngine({ address: sip.local_address, low, high, log });
  let ua: UserAgent | null = null;
  let registration: Registration | null = null;
  let updates: UpdateServer | null = null;
  let address = sip.local_address;
  // Timer F (64·T1) ends every transaction; the bound only catches a report that never comes.
  const probeBoundMs = 64 * sip.t1_ms + 1000;
  const stopMs = stopWaitMs(sip.t1_ms);
  // The addresses of our server and proxy: only they may call the voice desk through this trunk.
  let trunkAddresses: ReadonlySet<string> = new Set();
  /** The Request-URI we dial for a stored number (also the Refer-To of a desk transfer). */
  const dialUri = (number: string) => {
    // An extension is dialled as it is (numbers.accept "extension"): the prefix is for the outside line.
    // So is a PBX service code with * or # (a self-test's echo test, docs/telephony.md "Voice-path
    // self-test").
    const prefix = numberFormOf(number) === 'extension' || /[*#]/.test(number) ? '' : sip.dial_prefix;
    return new URI('sip', `${prefix}${number}`, domain);
  };

  return {
    mediaCounts: () => rtp.counts(),
    async start() {
      address = await advertisedAddress({ publicAddress: sip.public_address, localAddress: sip.local_address, server });
      const transportOptions: SipTransportOptions = {
        server,
        localAddress: sip.local_address,
        localPort: sip.local_port,
        t1Ms: sip.t1_ms,
        t2Ms: sip.t2_ms,
        tls: { caFile: sip.tls_ca_file, verify: sip.tls_verify },
        log,
        onWire: deps.onWire,
      };
      if (sip.transport === 'tls' && !sip.tls_verify) log.warn({ server: sip.server }, 'sip.tls_verify = false: the PBX certificate is not checked');
      ua = new UserAgent({
        uri: new URI('sip', sip.from_user || sip.username, domain),
        displayName: sip.from_display,
        authorizationUsername: sip.auth_username || sip.username,
        authorizationPassword: sip.password,
        transportConstructor: transportFor(sip.transport),
        transportOptions,
        // A loose route to the proxy ahead of every request (RFC 3261 §8.1.2, §16.12: `lr`).
        preloadedRouteSet: proxy ? [`<sip:${bracketHost(proxy.host)}:${proxy.port}${sip.transport === 'udp' ? '' : `;transport=${sip.transport}`};lr>`] : [],
        // srtp = "sdes": RTP/SAVP keyed in the SDP (ua/media-handler.ts, rtp/srtp.ts).
        sessionDescriptionHandlerFactory: () => new MediaHandler(rtp, address, sip.srtp),
        // Via sent-by and the Contact host; sip.js compares responses' Via host to it as written.
        viaHost: bracketHost(address),
        forceRport: true,
        contactName: sip.username,
        contactParams: sip.transport === 'udp' ? {} : { transport: sip.transport },
        userAgentString: `voice-alert/${VERSION}`,
        // Supported: 100rel, timer (ua/invite-extensions.ts); sip.js PRACKs reliable 1xx itself.
        sipExtension100rel: SIPExtension.Supported,
        sipExtensionExtraSupported: SUPPORTED_EXTENSIONS.filter((t) => t !== '100rel'),
        logBuiltinEnabled: false,
        // sip.js builds a log string per message at level "log"; skip that work unless asked.
        logLevel: log.isLevelEnabled('debug') ? 'debug' : 'warn',
        logConfiguration: false,
        logConnector: (level, category, _label, content) => {
          if (level === 'error' || level === 'warn') log.warn({ category }, content);
          else log.debug({ category }, content);
        },
        delegate: {
          // Without the voice desk we only call out; an incoming call is refused so it cannot hold a channel.
          onInvite: (invitation) => (onInvite ? onInvite(invitation) : void invitation.reject({ statusCode: 603 }).catch(() => undefined)),
          onMessage: (message) => {
            const reply = (statusCode: number) => void (statusCode < 300 ? message.accept() : message.reject({ statusCode })).catch(() => undefined);
            if (onText) onText(message.request, reply);
            else reply(200);
          },
        },
      });
      let onInvite: ((invitation: Invitation) => void) | null = null;
      let onText: ReturnType<typeof inboundTextMessages> | null = null;
      await ua.start();
      updates = createUpdateServer(ua, log);
      if (deps.inbound || deps.onText) {
        trunkAddresses = await hostAddresses([server.host, registrar.host]);
        acceptAnyUser(ua, new Set([...(deps.inbound ? (['INVITE'] as const) : []), ...(deps.onText ? (['MESSAGE'] as const) : [])]));
      }
      if (deps.onText) onText = inboundTextMessages({ trunk: sip.name, addresses: () => trunkAddresses, onText: deps.onText });
      if (deps.inbound) {
        onInvite = inboundInvites({
          trunk: sip.name,
          desk: deps.inbound,
          addresses: () => trunkAddresses,
          transferUri: dialUri,
          srtp: sip.srtp,
          minSeS: sip.min_se_s,
          updates,
          t1Ms: sip.t1_ms,
          log,
        });
      }
      // Contact must name the port we listen on (sip.js leaves it out).
      ua.contact.uri.port = (ua.transport as SipTransportBase).localPort();
      log.info({ server: sip.server, transport: sip.transport, address, port: ua.contact.uri.port }, 'sip trunk ready');
      if (sip.register) {
        registration = createRegistration(ua, {
          user: sip.username,
          domain,
          expiresS: sip.register_expires_s,
          transactionMs: 64 * sip.t1_ms,
          stopBoundMs: stopMs,
          log,
          onOutcome: deps.onRegisterOutcome,
        });
        // A registrar that answers does so in milliseconds; a silent one must not hold the trunk
        // (and a SIGTERM waiting for it) for Timer F's 32 s: calls are tried meanwhile and the
        // outcome reaches the trunk status when it comes.
        await until(registration.start(), FIRST_REGISTER_WAIT_MS);
      }
    },
    dial(request) {
      if (!ua) throw new Error('telephone not started');
      const target = dialUri(request.number);
      return dialFollowingRedirects(ua, target, {
        ...request,
        extraHeaders: identity,
        maxCallMs: request.maxCallMs ?? DEFAULT_MAX_CALL_S * 1000,
        silenceMs,
        t1Ms: sip.t1_ms,
        inviteTimeoutMs: sip.invite_timeout_s * 1000,
        stopWaitMs: stopMs,
        log,
        onPacketSent: deps.onPacketSent,
        sessionExpiresS: sip.session_expires_s,
        minSeS: sip.min_se_s,
        updates: updates!,
      });
    },
    localPort: () => (ua ? (ua.transport as SipTransportBase).localPort() : 0),
    sendText: (number, text) => (ua ? sendTextMessage(ua, dialUri(number), text, { boundMs: probeBoundMs, extraHeaders: identity }) : notStarted()),
    probe: () => (ua ? sendOptions(ua, serverUri(bracketHost(server.host), server.port), { boundMs: probeBoundMs }) : notStarted()),
    checkRegister: () => (ua ? sendRegisterCheck(ua, { boundMs: probeBoundMs }) : notStarted()),
    registered: () => (sip.register ? (registration?.status().registered ?? false) : null),
    registrationError: () => registration?.status().error ?? null,
    async stop() {
      await registration?.stop(); // the un-REGISTER, within stopMs
      const agent = ua;
      ua = null;
      if (agent) {
        // sip.js ends its sessions, closes the transport and disposes its core, but waits for
        // whatever a silent PBX never answers (a BYE: RFC 3261 §17.1.2.2 Timer F, 64·T1).
        const stopped = await until(
          agent.stop().then(
            () => true,
            (e) => log.warn({ error: describeError(e) }, 'sip user agent stop failed'),
          ),
          stopMs,
        );
        if (stopped !== true) {
          // What it left open is given up here: every transaction's timers (sip.js's B, D, F,
          // K, H, J…) and ours (transport/retransmit.ts) are cancelled and the socket closed,
          // or they keep the process alive for up to 64·T1 after it logged that it stopped.
          agent.userAgentCore.dispose();
          await agent.transport.dispose();
        }
      }
      if (!deps.rtp) await rtp.close();
    },
  };
}

/** P-Asserted-Identity (RFC 3325 §9.1) and Privacy (RFC 3323 §4.2) for our INVITEs, when configured. */
export function identityHeaders(sip: Pick<SipConfig, 'pai' | 'privacy' | 'from_display'>, domain: string): string[] {
  const headers: string[] = [];
  if (sip.pai) {
    const uri = /^(sips?|tel):/.test(sip.pai) ? sip.pai : `sip:${sip.pai}@${domain}`;
    const name = sip.from_display ? `"${sip.from_display.replace(/["\\]/g, '')}" ` : '';
    headers.push(`P-Asserted-Identity: ${name}<${uri}>`);
  }
  if (sip.privacy) headers.push(`Privacy: ${sip.privacy}`);
  return headers;
}

const notStarted = (): Promise<ProbeResult> => Promise.resolve({ answered: false, failure: 'transport', reason: 'telephone not started', rttMs: 0 });
