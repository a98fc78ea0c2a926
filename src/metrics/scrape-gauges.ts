import type { Registry } from 'prom-client';
import { ALERT_STATES, CALL_STATES } from '../call-model';
import type { Clock } from '../clock';
import type { Store } from '../store';
import { promClient } from './prom-client';
import { createStoreReader } from './store-readings';

/** What the scrape-time gauges read: the store, the clock, the trunk's live state when telephony runs here. */
export interface ScrapeSources {
  store: Store;
  clock: Clock;
  /** The trunk as telephony reports it (src/calls TrunkStatus; typed here so metrics stays a leaf). */
  trunkStatus?: () => {
    state: string;
    registered: boolean | null;
    reachable?: boolean | null;
    lastProbeRttMs?: number | null;
    changes?: { down: number; up: number };
    /** Each trunk by name (docs/telephony.md "SIP trunks: several, in order"): up / down / none. */
    trunks?: { name: string; state: string }[];
  };
  /** RTP packets sent and late pacer ticks since start (the RTP worker's counters). */
  mediaCounts?: () => { packetsSent: number; lateTicks: number };
  /** The GSM modems (docs/second-path.md "Operations"; typed here so metrics stays a leaf). */
  smsStatus?: () => { modems: { name: string; state: string; registration: { registered: boolean } | null; signal: { dbm: number | null } | null }[] };
  /** Each trunk's newest voice-path self-test result (src/self-test scheduler.ts). */
  selfTestResults?: () => { trunk: string; ok: boolean }[];
  /** Each schedule's next 14 days as the coverage loop last computed them (src/schedules/coverage-gauges.ts). */
  coverage?: () => readonly { account: string; schedule: string; unverifiedPeople: number; gapSeconds: number }[];
}

const ageS = (now: number, oldest: number | null) => (oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));

/**
 * Gauges computed when Prometheus scrapes, one grouped query each, so they are exact at
 * that moment (and cost nothing between scrapes). The store's gauges are read through a
 * StoreReader (store-readings.ts): a database that does not answer at once leaves them at
 * their last values and voice_alert_database_up at 0, and never holds the scrape. Every
 * known state is set, 0 included: a series that vanishes at zero breaks `sum()` and
 * alerting rules on it.
 *
 * A registry of their own, per HTTP app, because they read that app's store; the route
 * merges it with the process-wide instruments.
 */
export function createScrapeRegistry(src: ScrapeSources): Registry {
  const { Counter, Gauge, Registry } = promClient();
  const registry = new Registry();
  const registers = [registry];
  const now = () => src.clock();
  const reader = createStoreReader(src.store);
  /** Sets the gauge from the store's readings, when there are any yet. */
  const fromStore = async (set: (r: NonNullable<Awaited<ReturnType<typeof reader.current>>['readings']>) => void) => {
    const { readings } = await reader.current();
    if (readings) set(readings);
  };

  new Gauge({
    name: 'voice_alert_database_up',
    help: '1 when the database answered this scrape\'s reads at once; 0 when it did not (the store\'s gauges then keep their last values)',
    registers,
    async collect() {
      this.set((await reader.current()).fresh ? 1 : 0);
    },
  });

  new Gauge({
    name: 'voice_alert_calls',
    help: 'Calls in the database, by state',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      await fromStore(({ calls }) => {
        for (const state of CALL_STATES) this.set({ state }, calls[state] ?? 0);
      });
    },
  });
  new Gauge({
    name: 'voice_alert_alerts',
    help: 'Alerts in the database, by state',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      await fromStore(({ alerts }) => {
        for (const state of ALERT_STATES) this.set({ state }, alerts[state] ?? 0);
      });
    },
  });
  new Gauge({
    name: 'voice_alert_queue_depth',
    help: 'Calls waiting to be dialled',
    registers,
    async collect() {
      await fromStore(({ queue }) => this.set(queue.queued));
    },
  });
  new Gauge({
    name: 'voice_alert_queue_oldest_seconds',
    help: 'How long the oldest queued call has waited (0: none queued)',
    registers,
    async collect() {
      await fromStore(({ queue }) => this.set(ageS(now(), queue.oldestCreatedAt)));
    },
  });
  new Gauge({
    name: 'voice_alert_outbox_backlog',
    help: 'Callback events not yet delivered nor given up',
    registers,
    async collect() {
      await fromStore(({ outbox }) => this.set(outbox.pending));
    },
  });
  new Gauge({
    name: 'voice_alert_outbox_oldest_seconds',
    help: 'Age of the oldest undelivered callback event (0: none)',
    registers,
    async collect() {
      await fromStore(({ outbox }) => this.set(ageS(now(), outbox.oldestCreatedAt)));
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_configured',
    help: '1 when sip.server is set and telephony runs in this process',
    registers,
    collect() {
      const s = src.trunkStatus?.();
      this.set(s && s.state !== 'not_configured' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_up',
    help: '1 while the SIP trunk takes calls: started and not down (up, or none: not probed, tried in its turn)',
    labelNames: ['trunk'],
    registers,
    collect() {
      this.reset(); // a series per configured trunk, none without telephony here
      const s = src.trunkStatus?.();
      if (!s || s.state === 'not_configured') return;
      const running = s.state === 'up';
      // A status without its trunks (one trunk, an older caller) is the trunk named default.
      const trunks = s.trunks ?? [{ name: 'default', state: s.reachable === false ? 'down' : 'up' }];
      for (const t of trunks) this.set({ trunk: t.name }, running && t.state !== 'down' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_self_test_ok',
    help: "1 when the trunk's newest voice-path self-test passed, 0 when it failed (no series before its first)",
    labelNames: ['trunk'],
    registers,
    collect() {
      this.reset();
      for (const r of src.selfTestResults?.() ?? []) this.set({ trunk: r.trunk }, r.ok ? 1 : 0);
    },
  });
  // Computed by an engine loop, read here: docs/on-call.md "Coverage". A deleted schedule's series goes.
  new Gauge({
    name: 'voice_alert_oncall_unverified_people',
    help: 'people on call in the next 14 days with no verified phone, per account and schedule',
    labelNames: ['account', 'schedule'],
    registers,
    collect() {
      this.reset();
      for (const c of src.coverage?.() ?? []) this.set({ account: c.account, schedule: c.schedule }, c.unverifiedPeople);
    },
  });
  new Gauge({
    name: 'voice_alert_oncall_gap_seconds',
    help: 'seconds of the next 14 days with nobody on call, per account and schedule',
    labelNames: ['account', 'schedule'],
    registers,
    collect() {
      this.reset();
      for (const c of src.coverage?.() ?? []) this.set({ account: c.account, schedule: c.schedule }, c.gapSeconds);
    },
  });
  // One series per configured modem, always set (0 when down): docs/second-path.md "Operations".
  new Gauge({
    name: 'voice_alert_modem_up',
    help: '1 while the GSM modem answers and its SIM is ready (its session is ready)',
    labelNames: ['modem'],
    registers,
    collect() {
      this.reset();
      for (const m of src.smsStatus?.().modems ?? []) this.set({ modem: m.name }, m.state === 'ready' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_modem_registered',
    help: '1 while the GSM modem is registered on a network (+CREG 1 home or 5 roaming)',
    labelNames: ['modem'],
    registers,
    collect() {
      this.reset();
      for (const m of src.smsStatus?.().modems ?? []) this.set({ modem: m.name }, m.state === 'ready' && m.registration?.registered ? 1 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_modem_signal_dbm',
    help: 'signal strength the GSM modem last reported (+CSQ), in dBm; absent while unknown',
    labelNames: ['modem'],
    registers,
    collect() {
      this.reset();
      for (const m of src.smsStatus?.().modems ?? []) if (m.signal?.dbm != null) this.set({ modem: m.name }, m.signal.dbm);
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_reachable',
    help: '1 while the last SIP OPTIONS probe of the trunk was answered (0 when not, or not probed yet)',
    registers,
    collect() {
      this.set(src.trunkStatus?.().reachable === true ? 1 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_options_rtt_seconds',
    help: 'round-trip time of the last answered SIP OPTIONS probe',
    registers,
    collect() {
      const ms = src.trunkStatus?.().lastProbeRttMs;
      this.set(typeof ms === 'number' ? ms / 1000 : 0);
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_changes',
    help: 'times the trunk went down or came back up (SIP OPTIONS), since start',
    labelNames: ['to'],
    registers,
    collect() {
      const c = src.trunkStatus?.().changes ?? { down: 0, up: 0 };
      this.set({ to: 'down' }, c.down);
      this.set({ to: 'up' }, c.up);
    },
  });
  // Counters kept by the RTP worker (src/sip/rtp/media-counters.ts), read at scrape time.
  new Counter({
    name: 'voice_alert_rtp_packets_sent_total',
    help: 'RTP packets sent to callees since start',
    registers,
    collect() {
      this.reset();
      this.inc(src.mediaCounts?.().packetsSent ?? 0);
    },
  });
  new Counter({
    name: 'voice_alert_rtp_late_ticks_total',
    help: 'RTP pacer ticks that fired more than half a packet interval (10 ms) late since start',
    registers,
    collect() {
      this.reset();
      this.inc(src.mediaCounts?.().lateTicks ?? 0);
    },
  });
  new Gauge({
    name: 'voice_alert_trunk_registered',
    help: '1 while the trunk holds a REGISTER binding (0 for an IP trunk or when down)',
    registers,
    collect() {
      this.set(src.trunkStatus?.().registered === true ? 1 : 0);
    },
  });
  return registry;
}
