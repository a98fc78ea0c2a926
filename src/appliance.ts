import { dirname } from 'node:path';
import { systemClock, type Clock } from './clock';
import { parseHostPort, type Config } from './config';
import { createHttpApp, createRateLimiter, serveOptions } from './http';
import { createPanelEnv, panelRoutes } from './http/panel';
import { createTelephony, NO_TRUNK_REASON } from './calls';
import { createEscalationEngine } from './escalation';
import { createCallbackSender } from './callbacks';
import type { IntakeDeps } from './intake';
import type { Logger } from './log';
import { createSnsConfirmer } from './sources';
import { createStore, storeOptionsFrom, type Store } from './store';
import { startSweeper } from './sweeper';
import { createCallAudioSource, type SpeechSource } from './tts';
import { languageOf } from './tts/language';

/** A running appliance: HTTP intake over the store. */
export interface Appliance {
  store: Store;
  /** The bound address (the port is real even when the config said 0). */
  url: string;
  /** Stops intake, lets requests in flight finish, commits, closes the database. */
  stop(): Promise<void>;
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
  const store = await createStore({ ...storeOptionsFrom(config), clock, log });
  const speech = createSpeech(config, log);
  const telephony = createTelephony(config, { store, clock, log, audio: speech });
  // onQueued: the dialer looks at once instead of at its next poll.
  const intake: IntakeDeps = {
    store,
    clock,
    timeZone: config.credit.timezone,
    // With no trunk, a call says why it waits from the moment it is queued.
    waitReason: () => (telephony.trunkConfigured() ? null : NO_TRUNK_REASON),
    dedupeWindowS: config.alerts.dedupe_window_s,
    onQueued: () => telephony.wake(),
    numberForms: config.numbers.accept,
    language: languageOf(config.tts.voice, config.tts.language),
    snsConfirmer: createSnsConfirmer({
      autoConfirm: config.integrations.sns_auto_confirm,
      allowedHosts: config.integrations.sns_confirm_hosts,
      log,
    }),
  };
  const rateLimiter = createRateLimiter(config.http.rate_limit_per_minute, clock);
  const httpDeps = { store, clock, log, config, intake, rateLimiter, trunkStatus: () => telephony.status(), mediaCounts: () => telephony.mediaCounts() };
  const app = createHttpApp(httpDeps, [panelRoutes(createPanelEnv(httpDeps, { speech }))]);

  const { host, port } = parseHostPort(config.http.listen)!;
  // Bun's own body cap answers 413 in plain text; ours (max_body_bytes) answers in JSON,
  // so Bun's is set well above it.
  app.listen(serveOptions({ hostname: host, port, maxRequestBodySize: 16 * 1024 * 1024 }));
  const server = app.server!;
  const shownHost = server.hostname?.includes(':') ? `[${server.hostname}]` : server.hostname;
  const url = `http://${shownHost}:${server.port}`;

  telephony.start();
  // Escalations follow their durable schedule on the dialer's clock; new step calls wake it.
  const escalation = createEscalationEngine({ store, clock, log, timeZone: config.credit.timezone, onQueued: () => telephony.wake() });
  escalation.start();
  // Outcome callbacks: outside intake and dialling, on its own bounded slots (sender.ts).
  const callbacks = createCallbackSender({ store, clock, log, leaseMs: config.calls.lease_s * 1000 });
  callbacks.start();

  const sweeper = startSweeper({ store, rateLimiter, clock, log, config });

  return {
    store,
    url,
    async stop() {
      await server.stop(false); // false: requests in flight are answered first
      escalation.stop();
      await telephony.stop();
      await callbacks.stop(); // events in flight stay pending: sent again after the restart
      await sweeper.stop();
      await store.close();
      log.info('voice-alert stopped');
    },
  };
}
