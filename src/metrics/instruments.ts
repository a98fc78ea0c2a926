import type { Registry } from 'prom-client';
import { promClient, type PromClient } from './prom-client';

/**
 * The counters and histograms the appliance's parts move as things happen. A leaf: it
 * imports nothing of ours, so tts/ and calls/ may each add their one line (the store is told
 * through its onCommit, observeCommit below, as it imports nothing above it). What
 * is better read from the database at scrape time (queue depth, calls and alerts by
 * state, outbox backlog) is not here but in scrape-gauges.ts.
 *
 * One registry per process: the figures describe this process since it started, which is
 * what Prometheus' rate() expects of a counter (a restart resets it; rate() copes).
 *
 * Made when first used (`metrics.x`, instrumentRegistry()), all at once so that /metrics
 * shows every one of them from its first scrape, as before: a CLI command imports services
 * that move them but moves none, and so never loads prom-client (prom-client.ts).
 */
function createInstruments({ Counter, Histogram, Registry }: PromClient) {
  const registry = new Registry();
  const registers = [registry];
  const metrics = {
    /** Every HTTP answer; `endpoint` is the route pattern (never the raw path: ids would explode the series). */
    httpRequests: new Counter({
      name: 'voice_alert_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['endpoint', 'method', 'status'] as const,
      registers,
    }),
    /** Each edge a call takes, by the state it reached. */
    callTransitions: new Counter({
      name: 'voice_alert_call_transitions_total',
      help: 'Call state changes, by the state reached',
      labelNames: ['to'] as const,
      registers,
    }),
    /** One per dial attempt that ended, by the final SIP response code ("none": no response, e.g. a timeout). */
    callAttempts: new Counter({
      name: 'voice_alert_call_attempts_total',
      help: 'Call attempts that ended, by final SIP response code',
      labelNames: ['sip_code'] as const,
      registers,
    }),
    /** Answered attempts by who answered (docs/telephony.md "Voicemail detection"). */
    callsAnswered: new Counter({
      name: 'voice_alert_calls_answered_total',
      help: 'Answered call attempts, by who answered: human, machine or unknown',
      labelNames: ['answered_by'] as const,
      registers,
    }),
    /** Alerts that found nobody to call (docs/on-call.md "Nothing silently calls nobody"), counted once their transaction committed. */
    alertsUnroutable: new Counter({
      name: 'voice_alert_alerts_unroutable_total',
      help: 'Alerts for which nobody could be called (an empty schedule, a gap in the rota), fallback or not',
      registers,
    }),
    /** docs/second-path.md "Operations": each text handed to a modem or a trunk and taken (all its parts), by path (modem, sip). */
    textsSent: new Counter({
      name: 'voice_alert_texts_sent_total',
      help: 'Texts sent, by path (modem: a GSM modem; sip: SIP MESSAGE through a trunk)',
      labelNames: ['path'] as const,
      registers,
    }),
    /** A text no modem or trunk took after its retries. */
    textsFailed: new Counter({
      name: 'voice_alert_texts_failed_total',
      help: 'Texts that could not be sent after their retries, by path',
      labelNames: ['path'] as const,
      registers,
    }),
    textsReceived: new Counter({
      name: 'voice_alert_texts_received_total',
      help: 'Texts received (a GSM modem or a SIP MESSAGE from a trunk), by path',
      labelNames: ['path'] as const,
      registers,
    }),
    emails: new Counter({
      name: 'voice_alert_emails_total',
      help: 'E-mails handed to the SMTP relay, by result (sent, failed)',
      labelNames: ['result'] as const,
      registers,
    }),
    speechRenderSeconds: new Histogram({
      name: 'voice_alert_speech_render_seconds',
      help: 'Time to render one utterance to telephone audio (cache misses only)',
      labelNames: ['engine'] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    speechCache: new Counter({
      name: 'voice_alert_speech_cache_lookups_total',
      help: 'Speech render cache lookups, by result (hit or miss)',
      labelNames: ['result'] as const,
      registers,
    }),
    groupCommitBatchSize: new Histogram({
      name: 'voice_alert_group_commit_batch_writes',
      help: 'Units of work carried by one committed transaction (SQLite groups them; 1 on PostgreSQL)',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    }),
    groupCommitSeconds: new Histogram({
      name: 'voice_alert_group_commit_seconds',
      help: 'Time from BEGIN to COMMIT of one transaction (the fsync included)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    /** One observation per tick of each background loop (src/engine): a loop slower than its interval shows here first. */
    loopTickSeconds: new Histogram({
      name: 'voice_alert_loop_tick_seconds',
      help: 'Time one tick of a background loop took, by loop',
      labelNames: ['loop'] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers,
    }),
  };
  return { registry, metrics };
}

let made: ReturnType<typeof createInstruments> | null = null;
const instruments = () => (made ??= createInstruments(promClient()));

/** The registry the instruments are in (the /metrics route merges it with the scrape-time gauges). */
export function instrumentRegistry(): Registry {
  return instruments().registry;
}

export type Metrics = ReturnType<typeof createInstruments>['metrics'];

/**
 * The instruments, each made with all the others on the first read of any (a property read
 * through to instruments()).
 */
export const metrics: Metrics = new Proxy({} as Metrics, { get: (_, name) => instruments().metrics[name as keyof Metrics] });

/** What the store tells of each commit (store.onCommit), as the two histograms above. */
export function observeCommit(units: number, seconds: number): void {
  metrics.groupCommitBatchSize.observe(units);
  metrics.groupCommitSeconds.observe(seconds);
}
