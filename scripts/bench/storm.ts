// scripts/bench-storm (issue 12): an alert storm against the compiled binary. See the wrapper.
//   10,000 alerts in 60 s over 200 alert keys to 20 numbers, on /webhook/receive, open loop
//   (each request leaves on schedule whatever the answers do), a sipp UAS answering every call
//   and pressing nothing. Then the queue drains and the database is read.
import { Database } from 'bun:sqlite';
import { readFileSync } from 'node:fs';
import { applianceDir, provision } from '../../test/helpers/appliance';
import { startSipp } from '../../test/helpers/sipp';
import { freePort } from '../../test/helpers/ports';

const TOTAL = Number(process.env.ALERTS ?? 10_000);
const SECONDS = Number(process.env.SECONDS ?? 60);
const KEYS = 200;
const NUMBERS = 20;
/** The storm's numbers and the warm-up's: 20 each, apart from each other and from the plain reference's. */
const STORM_PREFIX = '53212340';
const WARM_PREFIX = '53212350';
const numberOf = (prefix: string, i: number) => `${prefix}${String(i).padStart(2, '0')}`;
const numbers = Array.from({ length: NUMBERS }, (_, i) => numberOf(STORM_PREFIX, i));
const callsTo = (prefix: string) => `phone_number LIKE '${prefix}%'`;
const STORM_CALLS = callsTo(STORM_PREFIX);
/**
 * The plain reference runs on a process that has answered the storm; the storm, started right
 * after the appliance, ran on a cold one (its first second's p50 was 45 ms: the JIT's first
 * compilations, the first statements prepared). WARMUP=0 measures the cold start again.
 */
const WARMUP = process.env.WARMUP !== '0';

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts `total` requests over `seconds` on a fixed schedule; `body(i)` builds each. */
async function openLoop(url: string, total: number, seconds: number, body: (i: number) => object) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let queued = 0;
  let deduplicated = 0;
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * seconds * 1000) / total;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(
      (async () => {
        const t0 = performance.now();
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(i)) });
        const json = (await r.json()) as { call_ids?: string[]; deduplicated_call_ids?: string[] };
        latencies.push(performance.now() - t0);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        queued += json.call_ids?.length ?? 0;
        deduplicated += json.deduplicated_call_ids?.length ?? 0;
      })(),
    );
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  return { elapsed, latencies, statuses, queued, deduplicated };
}

const peakRssMb = (pid: number) => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

async function main() {
  const sipp = await startSipp({ scenario: 'answer.xml', calls: 100_000, keys: { ring_ms: 0 }, extra: ['-max_socket', '1000'] });
  const rtp = await freePort();
  const dir = applianceDir({
    log: { level: 'warn' },
    sip: { server: `127.0.0.1:${sipp.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 200}` },
    calls: { max_concurrent: 20, repeat: 1, answer_delay_ms: 100 },
  });
  const acc = provision(dir, 'enterprise', ['--monthly-credit', '100000000']);
  const app = await dir.start([], { VOICE_ALERT_LOG_LEVEL: 'info' });
  const url = `${app.url}/webhook/receive?key=${acc.webhookKey}`;
  const db = new Database(`${dir.dir}/data/voice-alert.db`, { readonly: true });
  const unfinished = (where: string) =>
    (db.query(`SELECT count(*) AS n FROM calls WHERE ${where} AND finished_at IS NULL`).get() as { n: number }).n;

  if (WARMUP) {
    // The same kind of traffic (new keys, then their dedupe; 20 calls at once) to numbers of
    // its own, until its calls are done: the storm then meets a process as warm as the plain
    // reference's.
    await openLoop(url, 1000, 6, (i) => ({
      alert_key: `warm/${i % NUMBERS}`,
      phone_number: numberOf(WARM_PREFIX, i % NUMBERS),
      error_message: `Warm-up ${i % NUMBERS}: interface ge-0/0/${i % 48} down`,
    }));
    const warmStart = Date.now();
    while (unfinished(callsTo(WARM_PREFIX)) > 0 && Date.now() - warmStart < 2 * 60_000) await sleep(500);
  }

  const storm = await openLoop(url, TOTAL, SECONDS, (i) => {
    const key = i % KEYS;
    return {
      alert_key: `storm/${key}`,
      phone_number: numbers[key % NUMBERS],
      error_message: `Alert ${key}: interface ge-0/0/${key % 48} down on sw-${key % 20}`,
    };
  });
  const rssDuring = peakRssMb(app.process.pid!);

  // Drain: every storm call ends (paced, so minutes), bounded.
  const open = () => unfinished(STORM_CALLS);
  const drainStart = Date.now();
  while (open() > 0 && Date.now() - drainStart < 15 * 60_000) await sleep(2000);
  const placed = (db.query(`SELECT count(*) AS n FROM dials WHERE ${STORM_CALLS}`).get() as { n: number }).n;
  const perHour = db
    .query(
      `SELECT max(n) AS n FROM (SELECT d1.phone_number, (SELECT count(*) FROM dials d2 WHERE d2.phone_number = d1.phone_number
         AND d2.at >= d1.at AND d2.at < d1.at + 3600000) AS n FROM dials d1 WHERE d1.${STORM_CALLS})`,
    )
    .get() as { n: number };
  const minGap = db
    .query(
      `SELECT min(d2.at - d1.at) AS gap FROM dials d1 JOIN dials d2 ON d2.phone_number = d1.phone_number AND d2.at > d1.at
       WHERE d1.${STORM_CALLS} AND NOT EXISTS (SELECT 1 FROM dials d3 WHERE d3.phone_number = d1.phone_number AND d3.at > d1.at AND d3.at < d2.at)`,
    )
    .get() as { gap: number | null };
  const finalStates = db.query(`SELECT state, count(*) AS n FROM calls WHERE ${STORM_CALLS} GROUP BY state`).all();
  db.close();

  // The same rate with plain requests (no key, so nothing is bundled away at intake): the
  // latency the storm's is compared with. 20 s of it, to a number of its own, once the storm's
  // calls are done: run before the storm, its 3,333 alerts for one number became one bundle
  // that was claimed and moved during the storm, on the main thread, and the storm's tail
  // measured that (BENCHMARKS.md "Alert storm").
  const plain = await openLoop(url, Math.round((TOTAL * 20) / SECONDS), 20, () => ({
    phone_number: '5329999999',
    error_message: 'Core switch sw-core-01 down: 10.0.0.1 unreachable',
  }));
  const rssPeak = peakRssMb(app.process.pid!);
  await app.stop();
  await sipp.stop();

  const fmt = (r: typeof storm) => ({
    accepted_per_s: Math.round((r.statuses.get(200) ?? 0) / r.elapsed),
    p50_ms: +q(r.latencies, 0.5).toFixed(2),
    p99_ms: +q(r.latencies, 0.99).toFixed(2),
    statuses: Object.fromEntries(r.statuses),
  });
  console.log(
    JSON.stringify(
      {
        warm_up: WARMUP,
        storm: { alerts: TOTAL, seconds: SECONDS, keys: KEYS, numbers: NUMBERS, ...fmt(storm), calls_queued: storm.queued, deduplicated: storm.deduplicated },
        plain_same_rate: fmt(plain),
        calls_placed: placed,
        max_calls_to_one_number_in_an_hour: perHour.n,
        min_gap_between_calls_to_one_number_s: minGap.gap === null ? null : minGap.gap / 1000,
        final_call_states: finalStates,
        drain_s: Math.round((Date.now() - drainStart) / 1000),
        peak_rss_mb: { during_storm: rssDuring, overall: rssPeak },
      },
      null,
      2,
    ),
  );
}

await main();
