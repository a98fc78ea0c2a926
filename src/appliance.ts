import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { certificateFields, createHttpApp, createRateLimiter, listen } from './http';
import { createPanelEnv, panelRoutes } from './http/panel';
import { createTelephony, NO_TRUNK_REASON } from './calls';
import { createEscalationEngine } from './escalation';
import { createCoverageGauges, createOncallWatch } from './schedules';
import { createWindowStarter } from './maintenance';
import { createCallbackSender } from './callbacks';
import { createEngine } from './engine';
import { createHeartbeatChecker } from './heartbeats';
import { createHandoffLoop } from './handoff';
import { createSelfTestScheduler } from './self-test';
import { sipTrunks } from './config/sections/sip';
import type { IntakeDeps } from './intake';
import type { Logger } from './log';
import { observeCommit } from './metrics';
import { createSnsConfirmer } from './sources';
import { createServices, type Services } from './services';
import { createStore, storeOptionsFrom, type Store } from './store';
import { createReplyHandler, createSecondPath, createTextNotifier } from './second-path';
import { createSweeper } from './sweeper';
import { prepareTls, type TlsError } from './tls';
import { createCallAudioSource, type SpeechSource } from './tts';
import { languageOf } from './tts/language';
import { createVoiceDesk } from './voice-desk';

/** A running appliance: HTTP intake over the store. */
export interface Appliance {
  store: Store;
  /** The registry the HTTP routes and the panel use (src/services.ts). */
  services: Services;
  /** The bound address, http:// or https:// (the port is real even when the config said 0). */
  url: string;
  /** http.plain_listen's bound address beside HTTPS, or null. */
  plainUrl: string | null;
  /** The certificate served at start (docs/https.md "HTTPS"): what the start log line shows; null on plain HTTP. */
  tls: ReturnType<typeof certificateFields> | null;
  /** SIGHUP: re-reads the certificate and key; logs the outcome, never rejects. */
  reloadTls(): Promise<void>;
  /** Stops intake, lets requests in flight finish, commits, closes the database. */
  stop(): Promise<void>;
}

/** The certificate could not be read or made: `serve` refuses to start, naming the file. */
export class TlsSetupError extends Error {
  override readonly name = 'TlsSetupError';
  constructor(readonly error: TlsError) {
    super(error.message);
  }
}

export interface StartOptions {
  config: Config;
  log: Logger;
  clock?: Clock;
}

/**
 * The speech pipeline (src/tts: text → normalised words → espeak-ng/piper → 8 kHz G.711,
 * cached beside the database). Built here and nowhere else: the appliance hands one to
 * telephony and the panel; the `say` and `test-call` commands, which run without a
 * server, build theirs through this too, so they play exactly what a call would.
 */
export function createSpeech(config: Config, log: Logger): SpeechSource {
  return createCallAudioSource(config, { log, dataDir: dirname(config.store.path) });
}

/** Wires every part together; the one place that knows them all. */
export async function startAppliance({ config, log, clock = systemClock }: StartOptions): Promise<Appliance> {
  // Before the store opens: a certificate that does not load stops the start with nothing to undo.
  const tls = await prepareTls(config);
  if (!tls.ok) throw new TlsSetupError(tls.error);
  if (tls.value?.created) log.info(certificateFields(tls.value.pair), 'made a self-signed certificate');
  const store = await createStore({ ...storeOptionsFrom(config), clock, log, onCommit: observeCommit });
  // Calls queued wake the dialer and the second path's notices (texts and e-mails owed to the
  // people those calls reach, docs/second-path.md); the latter's loop exists once the engine does.
  let wakeNotices = (): void => undefined;
  const callsQueued = () => {
    telephony.wake();
    wakeNotices();
  };
  const speech = createSpeech(config, log);
  // Every domain service, once. Telephony is made below; its hooks run only on requests, after start.
  const services = createServices({
    store,
    clock,
    config,
    onQueued: callsQueued,
    trunkConfigured: () => telephony.status().state !== 'not_configured',
  });
  // docs/telephony.md "Voice desk": calls to the appliance, answered with the same speech as calls out.
  const desk = createVoiceDesk(config, { clock, log, speech, service: services.desk });
  // docs/second-path.md: texts (GSM modems or SIP MESSAGE through the trunks) and e-mail. Texts
  // coming in reach secondPath.onText's listeners (people's replies are read there, issue 48 §5).
  const secondPath = createSecondPath(config, { log, sipText: (number, text) => telephony.sendText(number, text) });
  // docs/second-path.md "Answering by text": a person's reply acknowledges or resolves.
  const replies = createReplyHandler({ store, clock, log, alerts: services.alerts });
  secondPath.onText((t) => void replies(t).catch((e: unknown) => log.error({ error: e instanceof Error ? e.message : String(e), from: t.from }, 'text reply not handled')));
  const notices = createTextNotifier({ store, clock, log, secondPath, leaseMs: config.calls.lease_s * 1000 });
  const telephony = createTelephony(config, {
    store,
    clock,
    log,
    audio: speech,
    ...(desk ? { inbound: desk } : {}),
    onText: (t) => secondPath.receive({ path: 'sip', via: t.trunk, from: t.from, body: t.body, truncated: false }),
    // Texts through a modem do not need the trunks; SIP MESSAGE does, so it never stands in for a call.
    textPathUp: () => config.sms.via === 'modem' && secondPath.status().state === 'up',
  });
  // The voice-path self-test (docs/telephony.md "Voice-path self-test"): scheduled calls claimed row by
  // row; every result, wherever it was made, marks its trunk here.
  const selfTests = createSelfTestScheduler({
    store,
    clock,
    log,
    config: config.self_test,
    trunks: sipTrunks(config.sip).map((t) => t.name),
    ringTimeoutS: config.calls.ring_timeout_s,
    dialOn: (trunk, request) => telephony.dialOn(trunk, request),
    markTrunk: (trunk, up, reason) => telephony.markTrunk(trunk, up, reason),
    started: (trunk) => telephony.status().trunks?.some((t) => t.name === trunk && t.started) ?? false,
  });
  // onQueued: the dialer looks at once instead of at its next poll.
  const intake: IntakeDeps = {
    store,
    clock,
    timeZone: config.credit.timezone,
    alerts: services.alerts,
    // With no trunk, a call says why it waits from the moment it is queued.
    waitReason: () => (telephony.trunkConfigured() ? null : NO_TRUNK_REASON),
    dedupeWindowS: config.alerts.dedupe_window_s,
    onQueued: callsQueued,
    numberForms: config.numbers.accept,
    language: languageOf(config.tts.voice, config.tts.language),
    snsConfirmer: createSnsConfirmer({
      autoConfirm: config.integrations.sns_auto_confirm,
      allowedHosts: config.integrations.sns_confirm_hosts,
      log,
    }),
  };
  // docs/on-call.md "Coverage": gaps and unverified people of the next 14 days, for /metrics.
  const coverage = createCoverageGauges({ store, clock });
  const rateLimiter = createRateLimiter(config.http.rate_limit_per_minute, clock);
  const httpDeps = { store, clock, log, config, intake, services, rateLimiter, trunkStatus: () => telephony.status(), mediaCounts: () => telephony.mediaCounts(), selfTestResults: () => selfTests.results(), smsStatus: () => secondPath.status(), coverage: () => coverage.readings() };
  const app = createHttpApp(httpDeps, [panelRoutes(createPanelEnv(httpDeps, { speech }))]);

  const listening = listen(app, { config, log, tls: tls.value });

  // Escalations follow their durable schedule on the dialer's clock; new step calls wake it.
  const escalation = createEscalationEngine({ store, clock, log, timeZone: config.credit.timezone, onQueued: callsQueued });
  // Outcome callbacks: outside intake and dialling, on its own bounded slots (sender.ts).
  const callbacks = createCallbackSender({ store, clock, log, leaseMs: config.calls.lease_s * 1000 });
  // Maintenance windows (docs/on-call.md "Maintenance windows"): each start, claimed by one appliance,
  // cancels what the window covers; the dialer then drops its covered calls not yet answered.
  const maintenance = createWindowStarter({ store, clock, log, timeZone: config.credit.timezone, leaseMs: config.calls.lease_s * 1000, onStarted: () => telephony.wake() });
  // Heartbeat deadlines (docs/on-call.md "Heartbeats"): a late one raises its alert through the intake.
  // The node is this appliance across restarts (host and data folder), so a restart is told
  // from another appliance that kept checking while this one was down.
  const heartbeats = createHeartbeatChecker({
    store,
    clock,
    log,
    node: `${hostname()}:${dirname(config.store.path)}`,
    leaseMs: config.calls.lease_s * 1000,
    language: config.panel.language,
    timeZone: config.credit.timezone,
    waitReason: intake.waitReason,
    onQueued: callsQueued,
  });
  // On-call schedules (docs/on-call.md "On-call schedules"): each change, claimed by one appliance, is an oncall.changed callback.
  const oncallWatch = createOncallWatch({ store, clock, log, leaseMs: config.calls.lease_s * 1000 });
  // Hand-off calls (docs/on-call.md "Hand-off calls"): each hand-off the watch wrote, claimed by one appliance.
  const handoffs = createHandoffLoop({
    store,
    clock,
    log,
    leaseMs: config.calls.lease_s * 1000,
    timeZone: config.credit.timezone,
    language: config.panel.language,
    waitReason: intake.waitReason,
    onQueued: callsQueued,
  });
  const sweeper = createSweeper({ store, rateLimiter, clock, log, config });

  // Every background loop (src/engine), in start order; the stop order below.
  const engine = createEngine({
    log,
    loops: [
      ...telephony.loops,
      secondPath.loop, // opens the modems, reads their SIM, registration and signal every sms.status_interval_s
      notices, // texts and e-mails owed to people reached by alerts, after the calls' COMMIT
      selfTests,
      escalation,
      callbacks,
      maintenance,
      heartbeats,
      oncallWatch,
      handoffs,
      coverage,
      sweeper,
    ],
    stopOrder: [
      escalation.name,
      maintenance.name,
      heartbeats.name, // a claimed heartbeat not yet fired is another appliance's at once
      oncallWatch.name,
      handoffs.name, // a claimed hand-off not yet stepped is another appliance's at once
      coverage.name, // reads only
      selfTests.name, // a self-test call in progress hangs up; its row stays due
      ...telephony.loops.map((l) => l.name), // unanswered calls back to the queue, answered ones finish; then the trunks close
      notices.name, // a notice being sent ends; one not finished is sent again after its lease
      secondPath.loop.name, // a text in progress ends with its modem's line
      callbacks.name, // events in flight stay pending: sent again after the restart
      sweeper.name,
    ],
  });
  wakeNotices = () => engine.wake(notices.name);
  await engine.start();

  return {
    store,
    services,
    url: listening.url,
    plainUrl: listening.plainUrl,
    tls: tls.value ? certificateFields(tls.value.pair) : null,
    reloadTls: () => listening.reloadTls(),
    async stop() {
      await listening.stop(); // requests in flight are answered first
      await engine.stop();
      await store.close();
      log.info('voice-alert stopped');
    },
  };
}
