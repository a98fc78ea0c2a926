import type { LoopSpec } from '../engine';
import type { CallAudio, CallOutcome } from '../call-model';
import type { Clock } from '../clock';
import { rtpPortRange, type SipConfig, type TrunkConfig } from '../config/sections/sip';
import { describeError, type Logger } from '../log';
import { createRtpEngine, createTelephone, describeProbe, type DialRequest, type InboundDesk, type InboundSipText, type MediaCounts, type ProbeResult, type Telephone } from '../sip';
import type { Store } from '../store';
import { isTrunkFailure, noneUpFor, trunkOrder } from './trunk-route';
import { createTrunkMonitor, type TrunkMonitor, type TrunkProbeStatus, type TrunkState } from './trunk-monitor';

/** One trunk as /healthz, /metrics, the panel and `doctor` see it. */
export interface TrunkEntryStatus extends TrunkProbeStatus {
  name: string;
  server: string;
  /** up / down / none (docs/telephony.md "SIP trunks: several, in order"); a trunk whose socket could not start is down. */
  state: TrunkState;
  /** Its user agent and socket are running (it can carry calls). */
  started: boolean;
  /** null for an IP trunk or while not started. */
  registered: boolean | null;
  /** Why its start failed (while retried), or once started why its last REGISTER failed. */
  lastError: string | null;
}

/**
 * Every configured trunk, each with its own user agent and SIP socket (trunk i binds
 * sip.local_port + i) and its own OPTIONS monitor, sharing one RTP engine (one worker, one
 * port range). A call is dialled through the first trunk, in order, that is not down and
 * may dial its number; an attempt that fails for a trunk reason (trunk-route.ts) is placed
 * again at once on the next one, within the same attempt (no credit, no attempt counted).
 */
export interface TrunkSet {
  /** Starts every trunk; each one that cannot start is tried again (5 s, doubling to 60 s). */
  start(): void;
  /** Called each time a trunk has started (the first one starts the dialer). */
  onStarted(listener: () => void): void;
  anyStarted(): boolean;
  dial(request: DialRequest): Promise<CallOutcome>;
  /** trunk-route.ts noneUpFor over the trunks as they are now (a trunk not started is down). */
  noneUpFor(number: string): boolean;
  /** One attempt on the named trunk only, no failover (a self-test of that trunk). */
  dialOn(name: string, request: DialRequest): Promise<CallOutcome>;
  /**
   * A text as SIP MESSAGE (RFC 3428, `[sms] via = "sip"`) through the first started trunk, in
   * order, that is not down and may dial the number; the next one when a trunk does not take
   * it (no answer, or a final non-2xx). Never rejects: the outcome names each trunk's answer.
   */
  sendText(number: string, text: string): Promise<TextOutcome>;
  /**
   * A check other than OPTIONS (the voice-path self-test) says the trunk works or not:
   * down until a later mark says up (probes do not lift it). False for an unknown name.
   */
  mark(name: string, up: boolean, reason: string): Promise<boolean>;
  names(): string[];
  statuses(): TrunkEntryStatus[];
  mediaCounts(): MediaCounts;
  /** Each trunk's OPTIONS probe loop (trunk-monitor.ts), for the engine. */
  probeLoops(): LoopSpec[];
  stop(): Promise<void>;
}

export type TextOutcome = { ok: true; trunk: string; answer: string; failures: string[] } | { ok: false; reason: string; failures: string[] };

export interface TrunkSetDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** The voice desk, offered every INVITE to each trunk (docs/telephony.md "Voice desk"); absent: refused. */
  inbound?: InboundDesk;
  /** Texts the PBX delivers as SIP MESSAGE, on any trunk. */
  onText?: (text: InboundSipText) => void;
}

interface Member {
  config: TrunkConfig;
  telephone: Telephone;
  monitor: TrunkMonitor;
  started: boolean;
  lastError: string | null;
  starting: Promise<void> | null;
  retry: ReturnType<typeof setTimeout> | null;
}

export function createTrunkSet(sip: SipConfig, trunks: TrunkConfig[], deps: TrunkSetDeps): TrunkSet {
  const log = deps.log.child({ component: 'trunks' });
  const [low, high] = rtpPortRange(sip.rtp_ports);
  const rtp = createRtpEngine({ address: sip.local_address, low, high, log: deps.log.child({ component: 'sip' }) });
  const listeners: (() => void)[] = [];
  let stopping = false;
  const members: Member[] = trunks.map((config) => {
    // A registering trunk's REGISTERs (first, refreshes, retries) count as its probes too.
    const registered = (r: ProbeResult) => void monitor.observe(r);
    const telephone = createTelephone(config, sip.silence_ms, { log: deps.log.child({ trunk: config.name }), rtp, onRegisterOutcome: registered, inbound: deps.inbound, onText: deps.onText });
    // Probing starts once the trunk is up: before that, its state says down (not started).
    const monitor = createTrunkMonitor({
      name: config.name,
      probe: () => telephone.probe(),
      intervalMs: sip.options_interval_s * 1000,
      server: config.server,
      store: deps.store,
      clock: deps.clock,
      log: deps.log,
    });
    return {
      config,
      telephone,
      monitor,
      started: false,
      lastError: null,
      starting: null,
      retry: null,
    };
  });

  // A trunk that cannot start (port taken, no route) is tried again until it can; the others
  // carry the calls meanwhile.
  const startOne = (m: Member, delayS: number) => {
    m.starting = m.telephone.start().then(
      () => {
        if (stopping) return;
        m.started = true;
        m.lastError = null;
        m.monitor.start();
        for (const l of listeners) l();
      },
      (e) => {
        m.lastError = e instanceof Error ? e.message : String(e);
        const others = members.some((x) => x.started);
        log.error(
          { error: describeError(e), trunk: m.config.name, server: m.config.server, retryInS: delayS },
          others ? 'sip trunk failed to start: the other trunks carry the calls' : 'sip trunk failed to start: calls stay queued',
        );
        if (!stopping) m.retry = setTimeout(() => startOne(m, Math.min(delayS * 2, 60)), delayS * 1000);
      },
    );
  };

  const stateOf = (m: Member): TrunkState => (m.started ? m.monitor.state() : 'down');

  /** One trunk's attempt, its progress told once per call however many trunks it tries. */
  const dialOne = (m: Member, request: DialRequest) => {
    log.info({ trunk: m.config.name, number: request.number }, 'dialing through trunk');
    return m.telephone.dial(request);
  };

  return {
    start() {
      for (const m of members) startOne(m, 5);
    },
    onStarted: (l) => void listeners.push(l),
    anyStarted: () => members.some((m) => m.started),
    async dial(request) {
      const order = trunkOrder(
        members.filter((m) => m.started).map((m) => ({ name: m.config.name, numbers: m.config.numbers, state: stateOf(m), m })),
        request.number,
      );
      if (order.length === 0) {
        return { code: 'NETWORK', status: null, reason: 'no started trunk may dial this number (sip.trunks numbers)' };
      }
      // Rendered once, and `ringing` reported once (a call model edge), whichever trunk rings.
      let audio: Promise<CallAudio> | null = null;
      let rang = false;
      const shared: DialRequest = {
        ...request,
        audio: () => (audio ??= request.audio()),
        progress: {
          ...request.progress,
          ringing: (status, reason) => {
            if (rang) return;
            rang = true;
            request.progress.ringing(status, reason);
          },
        },
      };
      let outcome: CallOutcome | null = null;
      for (const [i, { m }] of order.entries()) {
        request.progress.trunk?.(m.config.name);
        outcome = await dialOne(m, shared);
        const next = order[i + 1];
        if (!next || !isTrunkFailure(outcome) || request.signal?.aborted) return outcome;
        log.warn({ trunk: m.config.name, next: next.name, outcome: outcome.code, status: outcome.status, reason: outcome.reason }, 'trunk failed the attempt: placing it on the next trunk');
      }
      return outcome!;
    },
    noneUpFor: (number) => noneUpFor(members.map((m) => ({ name: m.config.name, numbers: m.config.numbers, state: stateOf(m) })), number),
    async sendText(number, text) {
      const order = trunkOrder(
        members.filter((m) => m.started).map((m) => ({ name: m.config.name, numbers: m.config.numbers, state: stateOf(m), m })),
        number,
      );
      const failures: string[] = [];
      for (const { m } of order) {
        const r = await m.telephone.sendText(number, text);
        const answer = describeProbe(r);
        if (r.answered && r.code >= 200 && r.code < 300) {
          log.info({ trunk: m.config.name, answer }, 'text sent as SIP MESSAGE');
          return { ok: true, trunk: m.config.name, answer, failures };
        }
        failures.push(`${m.config.name}: ${answer}`);
        log.warn({ trunk: m.config.name, answer }, 'trunk did not take the SIP MESSAGE');
      }
      return { ok: false, reason: failures.length ? failures.join('; ') : 'no started trunk may send to this number (sip.trunks numbers)', failures };
    },
    dialOn(name, request) {
      const m = members.find((x) => x.config.name === name);
      if (!m || !m.started) return Promise.resolve({ code: 'NETWORK', status: null, reason: `trunk ${name} is not started` });
      request.progress.trunk?.(name);
      return dialOne(m, request);
    },
    async mark(name, up, reason) {
      const m = members.find((x) => x.config.name === name);
      if (!m) return false;
      await m.monitor.mark(up, reason);
      return true;
    },
    names: () => members.map((m) => m.config.name),
    statuses: () =>
      members.map((m) => ({
        name: m.config.name,
        server: m.config.server,
        state: stateOf(m),
        started: m.started && !stopping,
        registered: m.started && !stopping ? m.telephone.registered() : null,
        lastError: m.started && !stopping ? m.telephone.registrationError() : m.lastError,
        ...m.monitor.status(),
      })),
    mediaCounts: () => rtp.counts(),
    probeLoops: () => members.map((m) => m.monitor.loop),
    async stop() {
      stopping = true;
      for (const m of members) if (m.retry) clearTimeout(m.retry);
      // A start in progress finishes (bounded by Timer F) before we stop it.
      await Promise.all(members.map((m) => m.starting));
      await Promise.all(members.map((m) => m.monitor.stop()));
      await Promise.all(members.map((m) => m.telephone.stop()));
      await rtp.close();
    },
  };
}
