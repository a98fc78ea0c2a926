import { defineConfig } from 'vitest/config';
import LongestFirst from './test/helpers/sequencer.ts';

/**
 * Suites that start real SIP peers (sipp, kamailio, baresip) and stream RTP on loopback.
 * The whole suite (scripts/test without arguments) runs those of projects `sip-peers` and
 * `postgres-peers` after the CPU-bound projects, with the machine to themselves,
 * TIMED_PEERS_AT_ONCE files at a time; the waiting ones (PEER_WAIT_SUITES) run beside the
 * CPU-bound projects.
 */
const PEER_SUITES = [
  'src/calls/dialer.test.ts',
  // Every test directly in src/sip dials a real peer (telephone, IPv6, mid-call media, …).
  'src/sip/*.test.ts',
  'src/calls/expire-stale.test.ts',
  'test/integration/telephony.test.ts',
  // SIGTERM against a silent PBX (issue 23 §5), and after a session refresh: production timers,
  // the process's exit measured.
  'test/integration/clean-stop.test.ts',
  'test/integration/callbacks.test.ts',
  'test/integration/callbacks-latency.test.ts',
  'test/integration/escalation.test.ts',
  'test/integration/alert-restart.test.ts',
  'test/integration/operations.test.ts',
  'src/trunks/trunk-monitor.test.ts',
  'src/calls/dialer-pbx.test.ts',
  'test/integration/doctor.test.ts',
  'test/integration/trunk-monitor.test.ts',
  // Several trunks in order, with failover (README "SIP trunks: several, in order").
  'test/integration/trunks.test.ts',
  'test/e2e/telephony-pbx.test.ts',
  // SIP over TLS (kamailio's tls module) and SRTP (baresip's srtp module), README "SIP over TLS and SRTP".
  'test/e2e/telephony-tls-srtp.test.ts',
  // The voice-path self-test against sipp echo and silent peers (README "Voice-path self-test").
  'test/integration/self-test.test.ts',
  // On-call from the panel in Chromium, with the self-test run against a sipp echo peer (issue 49 §2).
  'test/e2e/panel-oncall.test.ts',
  // A missed heartbeat's call through a sipp trunk (README "Heartbeats").
  'test/integration/heartbeat-call.test.ts',
  // A request's and an escalation's unroutable alert: the fallback dialled through a sipp trunk
  // (docs/on-call.md "Nothing silently calls nobody").
  'test/integration/fallback-call.test.ts',
  // A person's phones in order against sipp, and their language heard (docs/on-call.md "People").
  'test/integration/people-phones.test.ts',
  'test/integration/people-language.test.ts',
  // Verification calls against sipp (docs/on-call.md "Verification").
  'test/integration/people-verify.test.ts',
  // A hand-off call against sipp (docs/on-call.md "Hand-off calls").
  'test/integration/handoff-call.test.ts',
  // Voicemail detection: sipp plays a person's and a mailbox's greeting (docs/telephony.md "Voicemail detection").
  'test/integration/amd.test.ts',
  // The voice desk (README "Voice desk"): sipp calls the appliance through kamailio.
  'test/e2e/voice-desk.test.ts',
  'test/e2e/voice-desk-session-timer.test.ts',
  // Not SIP, but as sensitive to a busy machine: counts every request of two client loops
  // while the certificate is swapped under them (README "HTTPS").
  'test/integration/https.test.ts',
];

/**
 * Peer suites that mostly wait (a lease running out, an escalation step's wait_s, a restart, a
 * session refresh) and assert nothing finer than a second about time: three of them run at a
 * time, beside the CPU-bound projects (held at nice 19) in the whole suite (scripts/test). Those that measure media timing (late
 * ticks, gaps, a phone whose jitter buffer drops late packets from its recording, an echo
 * ratio) or latency (callbacks-latency's p99) keep the machine to themselves, and so does the
 * voice desk's suite: four at a time, a desk call once waited out its test's timeout.
 */
const PEER_WAIT_SUITES = [
  'test/integration/escalation.test.ts',
  'test/integration/alert-restart.test.ts',
  'test/integration/telephony.test.ts',
  'test/integration/trunks.test.ts',
  'test/integration/doctor.test.ts',
  'test/integration/clean-stop.test.ts',
  'test/integration/callbacks.test.ts',
  'test/e2e/voice-desk-session-timer.test.ts',
  'test/integration/heartbeat-call.test.ts',
  'test/integration/fallback-call.test.ts',
  'test/integration/people-phones.test.ts',
  'test/integration/people-language.test.ts',
  'test/integration/people-verify.test.ts',
  'test/integration/handoff-call.test.ts',
];

/**
 * Suites without peers that time the event loop itself (no gap over 100 ms while the
 * database is frozen or unreachable): a file beside them on the second core would break that.
 * They run one at a time after their store's other suites, which run two files at a time.
 */
const EVENT_LOOP_SUITES = ['src/http/health.test.ts', 'src/store/sql/postgres/unreachable.pg.test.ts'];

/**
 * Peer suites whose bounds assume the machine to themselves, run after the CPU-bound run
 * with the event-loop suites (main-solo on SQLite, postgres-solo on PostgreSQL), one file at a
 * time. Beside the CPU-bound run, even at its nice 19, they failed their bounds:
 * - store-ha times real-time media while its store is frozen (no RTP gap over 60 ms, OPTIONS
 *   answered within 100 ms): a 20 ms tick 40–60 ms late in three of four full runs;
 * - callbacks-latency compares POST /api/call's p99 with and without a hanging receiver: 245 ms
 *   against a bound of 144 (2026-12-02, once the CPU-bound run had grown denser: it took 664 s
 *   where it took 1,070);
 * - voice-desk-load counts the RTP sender's late ticks under 30 calls: 1.24 % against 1 %, the
 *   same run;
 * - https counts the requests two client loops get answered while the certificate is swapped
 *   under them: 19 against more than 20, the next run.
 */
const ALONE_PEER_SUITES = [
  'test/integration/store-ha.pg.test.ts',
  'test/integration/callbacks-latency.test.ts',
  'test/e2e/voice-desk-load.test.ts',
  'test/integration/https.test.ts',
];

/**
 * How many timed peer files (projects `sip-peers` and `postgres-peers`) run at once, with
 * nothing else on the machine. They mostly wait on real time (a greeting played, a menu heard,
 * a ring timeout): one at a time the projects took 381 s of the 2-core machine's time with it
 * 5–35 % busy (2026-12-03, /proc/stat every 5 s). Three at a time, `sip-peers` alone passed in
 * 133–140 s (two runs; two at a time 196–201 s, three runs), the machine at most 88 % busy in a
 * 5 s sample: each file's own time was the same as alone (voice-desk 92–96 s, amd 85–87 s), so
 * the media timing they assert did not suffer from one another. What breaks their bounds is a
 * CPU-bound run beside them (ALONE_PEER_SUITES), and that stays apart. Ports are each file's
 * own (test/helpers/ports.ts picks free ones), as in the waiting projects.
 */
const TIMED_PEERS_AT_ONCE = 3;

/** Event-loop suites about SQLite alone (its write lock held by another process): main-solo only. */
const SQLITE_EVENT_LOOP_SUITES = ['src/store/sql/sqlite/write-lock.test.ts', 'test/integration/sqlite-write-lock.test.ts'];

/**
 * Suites that run a second time with the store on PostgreSQL (store.url; a throwaway
 * cluster from test/helpers/global-setup.ts): everything that reads and writes through a
 * real store (test/helpers/memory-store.ts tempStore follows VOICE_ALERT_TEST_STORE).
 */
const POSTGRES_SUITES = [
  // PostgreSQL only: several appliances on one database.
  'src/**/*.pg.test.ts',
  'src/store/history.test.ts',
  'src/store/tables.test.ts',
  'src/store/usage.test.ts',
  'src/alerts/*.test.ts',
  'src/accounts/*.test.ts',
  'src/callbacks/*.test.ts',
  'src/escalation/*.test.ts',
  'src/schedules/*.test.ts',
  'src/people/*.test.ts',
  'src/handoff/*.test.ts',
  'src/second-path/notifier.test.ts',
  'src/second-path/text-instead.test.ts',
  'src/importers/apply.test.ts',
  'src/voice-desk/service.test.ts',
  'src/intake/*.test.ts',
  'src/maintenance/*.test.ts',
  'src/panel/*.test.ts',
  'src/sweeper.test.ts',
  'src/http/*.test.ts',
  'src/http/panel/*.test.ts',
  'src/calls/pacing.test.ts',
  'src/calls/dialer-limits.test.ts',
  'src/calls/telephony-status.test.ts',
  // The binary over HTTP and its CLI, on a PostgreSQL store (test/helpers/appliance.ts).
  'test/integration/alerts.test.ts',
  'test/integration/api-call.test.ts',
  'test/integration/cli.test.ts',
  'test/integration/durability.test.ts',
  'test/integration/http-edges.test.ts',
  'test/integration/maintenance.test.ts',
  'test/integration/native-sources.test.ts',
  'test/integration/panel-cli.test.ts',
  'test/integration/policy-cli.test.ts',
  'test/integration/schedule-cli.test.ts',
  'test/integration/desk-cli.test.ts',
  'test/integration/fallback-cli.test.ts',
  'test/integration/people-cli.test.ts',
  'test/integration/keys-cli.test.ts',
  'test/integration/webhook.test.ts',
  'test/integration/metrics.test.ts',
];

/** Peer suites (see PEER_SUITES) that run a second time on PostgreSQL, beside sip-peers' files. */
const POSTGRES_PEER_SUITES = [
  'test/integration/telephony.test.ts',
  'test/integration/escalation.test.ts',
  'test/integration/callbacks.test.ts',
  'test/integration/callbacks-latency.test.ts',
  'test/integration/alert-restart.test.ts',
  // PostgreSQL only: two appliances on one database, one killed (issue 16 §4).
  'test/integration/failover.pg.test.ts',
  // PostgreSQL only, on a cluster of its own: frozen, restarted, a node hung (issue 22).
  'test/integration/store-ha.pg.test.ts',
];

/**
 * Unit files (src/, project main) share their worker's loaded modules instead of loading them
 * again per file: of 568 s the main project's src files took on the loaded 2-core machine, 250 s
 * was vitest importing modules into each file's fresh context; with this, 379 s (import 39 s).
 * What a shared module keeps between files is the process's own metrics (prom-client
 * instruments): tests read them as a change from before, never as an absolute value.
 * The binary's suites (test/) stay isolated: they mock assets (cli-consistency, import-cli).
 */
const UNIT_FILES_SHARE_MODULES = { isolate: false } as const;

/**
 * The CPU-bound projects run beside the waiting peer projects at a lower priority (scripts/test): a
 * test there may wait for a core the peers' bursts take, so it has twice the default time
 * before it counts as hung. This bounds a hung test only: a bound a test asserts (a deadline,
 * RTP's pacing) is its own and unchanged, and passed at nice 19 in two full runs.
 */
const BESIDE_THE_PEERS = { testTimeout: 60_000 } as const;

// Groups run in `sequence.groupOrder` order within one vitest process (scripts/test with
// arguments runs them all in one; without, three processes: see scripts/test). Keep the numbers
// whole: vitest 4.1 lists the files of a project whose groupOrder is fractional, and then runs
// none of them.
// Tests run under Bun (`bunx --bun vitest run`) so they use the production engine.
// The forks pool fails under Bun (child.channel?.unref), threads works: see stack-findings.md.
export default defineConfig({
  test: {
    pool: 'threads',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/test-file-setup.ts'],
    // Each project's slowest files start first (test/helpers/sequencer.ts): no long file left
    // to run alone at the end of a group of several workers.
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          ...BESIDE_THE_PEERS,
          include: ['src/**/*.test.ts'],
          exclude: [...PEER_SUITES, ...EVENT_LOOP_SUITES, ...SQLITE_EVENT_LOOP_SUITES, '**/*.pg.test.ts', '**/node_modules/**'],
          maxWorkers: 2,
          ...UNIT_FILES_SHARE_MODULES,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main-binary',
          ...BESIDE_THE_PEERS,
          include: ['test/**/*.test.ts'],
          exclude: [...PEER_SUITES, ...ALONE_PEER_SUITES, ...EVENT_LOOP_SUITES, ...SQLITE_EVENT_LOOP_SUITES, '**/*.pg.test.ts', '**/node_modules/**'],
          // Three files at a time on two cores: most of their time is spent waiting on the binary
          // or the browser they drive. Two at a time the project took 168-186 s with the machine
          // 60-90 % busy; three at a time 130-160 s (two runs), 85-100 % busy (2026-12-03, beside the
          // waiting projects).
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main-solo',
          include: [...EVENT_LOOP_SUITES.filter((f) => !f.endsWith('.pg.test.ts')), ...SQLITE_EVENT_LOOP_SUITES, ...ALONE_PEER_SUITES.filter((f) => !f.endsWith('.pg.test.ts'))],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'sip-peers',
          include: PEER_SUITES,
          exclude: [...PEER_WAIT_SUITES, ...ALONE_PEER_SUITES],
          maxWorkers: TIMED_PEERS_AT_ONCE,
          // No retry: a flake is a bug to fix (waits poll for the peer, deadlines run on
          // fake timers), never a test to run twice.
          sequence: { groupOrder: 3 },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          ...BESIDE_THE_PEERS,
          include: POSTGRES_SUITES.filter((f) => f.startsWith('src/')),
          exclude: [...EVENT_LOOP_SUITES, '**/node_modules/**'],
          env: { VOICE_ALERT_TEST_STORE: 'postgres' },
          maxWorkers: 2,
          // Sharing modules as main does: after each file its stores are closed and any session
          // left on a database it made is ended (test/helpers/test-file-setup.ts), so a store a
          // file forgets no longer holds the cluster's connections for the files after it.
          ...UNIT_FILES_SHARE_MODULES,
          sequence: { groupOrder: 4 },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-binary',
          ...BESIDE_THE_PEERS,
          include: POSTGRES_SUITES.filter((f) => !f.startsWith('src/')),
          exclude: [...EVENT_LOOP_SUITES, '**/node_modules/**'],
          env: { VOICE_ALERT_TEST_STORE: 'postgres' },
          maxWorkers: 2,
          sequence: { groupOrder: 5 },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-solo',
          // The alone peer suites that run on PostgreSQL: its own (.pg) and those POSTGRES_PEER_SUITES runs again.
          include: [...EVENT_LOOP_SUITES, ...ALONE_PEER_SUITES.filter((f) => f.endsWith('.pg.test.ts') || POSTGRES_PEER_SUITES.includes(f))],
          env: { VOICE_ALERT_TEST_STORE: 'postgres' },
          fileParallelism: false,
          sequence: { groupOrder: 6 },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-peers',
          include: POSTGRES_PEER_SUITES,
          exclude: [...PEER_WAIT_SUITES, ...ALONE_PEER_SUITES],
          env: { VOICE_ALERT_TEST_STORE: 'postgres' },
          // With sip-peers, in its group (vitest asks the same maxWorkers of one group's projects).
          maxWorkers: TIMED_PEERS_AT_ONCE,
          sequence: { groupOrder: 3 },
        },
      },
      // The waiting peer suites (PEER_WAIT_SUITES), on both stores, three files at a time.
      {
        extends: true,
        test: {
          name: 'sip-waits',
          include: PEER_WAIT_SUITES,
          maxWorkers: 3,
          sequence: { groupOrder: 8 },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres-waits',
          include: POSTGRES_PEER_SUITES.filter((f) => PEER_WAIT_SUITES.includes(f)),
          env: { VOICE_ALERT_TEST_STORE: 'postgres' },
          maxWorkers: 3,
          sequence: { groupOrder: 8 },
        },
      },
    ],
  },
});
