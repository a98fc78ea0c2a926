import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { parsePromText, sampleValue } from '../../test/helpers/prom-text';
import { noProbe, type TrunkStatus } from '../calls';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import { observeCommit } from '../metrics';
import type { Store } from '../store';
import { createHttpApp } from './app';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function app(o: { token?: string; trunk?: TrunkStatus; media?: { packetsSent: number; lateTicks: number } } = {}) {
  const clock = manualClock('2026-11-15T12:00:00Z');
  // The store tells of its commits as the appliance wires it (appliance.ts).
  const s = await tempStore(clock, { onCommit: observeCommit });
  store = s;
  const config = configSchema.parse({ metrics: { token: o.token ?? '' } });
  const services = createServices({ store: s, clock, config });
  const http = createHttpApp({
    store: s,
    clock,
    log: silentLogger(),
    config,
    intake: { store: s, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(0, clock),
    trunkStatus: o.trunk ? () => o.trunk! : undefined,
    mediaCounts: o.media ? () => o.media! : undefined,
  });
  return { http, clock, store: s };
}

const scrape = async (a: Awaited<ReturnType<typeof app>>, headers: Record<string, string> = {}) => {
  const r = await a.http.handle(new Request('http://localhost/metrics', { headers }));
  return { status: r.status, type: r.headers.get('content-type'), text: await r.text() };
};

/** An alert with a queued call to each number, as the intake makes them. */
async function alertWithCalls(s: Store, clock: () => number, numbers: string[]) {
  const acc = await s.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  return s.transaction(async (tx) => {
    const alertId = await tx.alerts.create({ accountId: acc.id, credentialId: null, key: 'k', source: 'api', message: 'Disk dolu' }, clock());
    await tx.calls.enqueue(numbers.map((phoneNumber) => ({ accountId: acc.id, credentialId: null, source: 'api' as const, phoneNumber, message: 'm', alertId })), clock());
    return alertId;
  });
}

describe('GET /metrics', () => {
  it('answers the Prometheus text format that a strict reader accepts, every family typed and documented', async () => {
    const a = await app();
    const r = await scrape(a);
    expect(r.status).toBe(200);
    expect(r.type).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = parsePromText(r.text);
    for (const name of [
      'voice_alert_http_requests_total',
      'voice_alert_calls',
      'voice_alert_alerts',
      'voice_alert_call_attempts_total',
      'voice_alert_calls_answered_total',
      'voice_alert_call_transitions_total',
      'voice_alert_queue_depth',
      'voice_alert_queue_oldest_seconds',
      'voice_alert_trunk_up',
      'voice_alert_trunk_registered',
      'voice_alert_speech_render_seconds',
      'voice_alert_speech_cache_lookups_total',
      'voice_alert_group_commit_batch_writes',
      'voice_alert_group_commit_seconds',
      'voice_alert_loop_tick_seconds',
      'voice_alert_outbox_backlog',
      'voice_alert_rtp_packets_sent_total',
      'voice_alert_rtp_late_ticks_total',
    ]) {
      expect(families.get(name)?.help, name).toBeTruthy();
    }
    expect(families.get('voice_alert_group_commit_seconds')?.type).toBe('histogram');
    expect(families.get('voice_alert_calls')?.type).toBe('gauge');
  });

  it('reads calls and alerts by state, the queue depth and its oldest age from the store at scrape time', async () => {
    const a = await app();
    await alertWithCalls(a.store, a.clock, ['5321111111', '5322222222']);
    a.clock.advance(90_000);
    // A scrape waits at most 50 ms for the store (store-readings.ts); on a busy machine the
    // first read of a new store may take longer and leave the gauges unset with
    // voice_alert_database_up 0. What is asserted here is a fresh read's numbers: scrape until
    // one is fresh.
    let f = parsePromText('\n');
    await expect
      .poll(async () => sampleValue((f = parsePromText((await scrape(a)).text)), 'voice_alert_database_up'), { timeout: 5_000, interval: 20 })
      .toBe(1);
    expect(sampleValue(f, 'voice_alert_calls', { state: 'queued' })).toBe(2);
    // Every state is present, at 0 when empty: alerting rules on a missing series see nothing.
    expect(sampleValue(f, 'voice_alert_calls', { state: 'completed' })).toBe(0);
    expect(sampleValue(f, 'voice_alert_alerts', { state: 'open' })).toBe(1);
    expect(sampleValue(f, 'voice_alert_alerts', { state: 'acknowledged' })).toBe(0);
    expect(sampleValue(f, 'voice_alert_queue_depth')).toBe(2);
    expect(sampleValue(f, 'voice_alert_database_up')).toBe(1);
    expect(sampleValue(f, 'voice_alert_queue_oldest_seconds')).toBe(90);
    expect(sampleValue(f, 'voice_alert_outbox_backlog')).toBe(0);
  });

  it("RTP packets sent and late ticks are the RTP worker's counters, as counters", async () => {
    const f = parsePromText((await scrape(await app({ media: { packetsSent: 12_345, lateTicks: 3 } }))).text);
    expect(f.get('voice_alert_rtp_packets_sent_total')?.type).toBe('counter');
    expect(sampleValue(f, 'voice_alert_rtp_packets_sent_total')).toBe(12_345);
    expect(sampleValue(f, 'voice_alert_rtp_late_ticks_total')).toBe(3);
    const none = parsePromText((await scrape(await app())).text);
    expect(sampleValue(none, 'voice_alert_rtp_packets_sent_total')).toBe(0);
  });

  it('trunk up and registered follow telephony.status(); no telephony here is 0 and 0', async () => {
    const probed = { reachable: true, lastProbeAt: 1, lastProbeResult: '200 OK', lastProbeRttMs: 12, changes: { down: 2, up: 2 } };
    const up = parsePromText((await scrape(await app({ trunk: { state: 'up', registered: true, lastError: null, ...probed } }))).text);
    expect([sampleValue(up, 'voice_alert_trunk_up'), sampleValue(up, 'voice_alert_trunk_registered')]).toEqual([1, 1]);
    expect(sampleValue(up, 'voice_alert_trunk_reachable')).toBe(1);
    expect(sampleValue(up, 'voice_alert_trunk_options_rtt_seconds')).toBe(0.012);
    expect(sampleValue(up, 'voice_alert_trunk_changes', { to: 'down' })).toBe(2);
    const starting = parsePromText((await scrape(await app({ trunk: { state: 'starting', registered: null, lastError: 'x', ...noProbe() } }))).text);
    expect([sampleValue(starting, 'voice_alert_trunk_up'), sampleValue(starting, 'voice_alert_trunk_configured')]).toEqual([0, 1]);
    const none = parsePromText((await scrape(await app())).text);
    expect([sampleValue(none, 'voice_alert_trunk_up'), sampleValue(none, 'voice_alert_trunk_configured')]).toEqual([undefined, 0]);
  });

  it('voice_alert_trunk_up has one series per trunk: 1 while started and not down (docs/telephony.md "SIP trunks: several, in order")', async () => {
    const t = (name: string, state: 'up' | 'down' | 'none') => ({ name, server: `${name}:5060`, state, started: true, registered: null, lastError: null, ...noProbe() });
    const trunks = [t('pbx', 'down'), t('carrier', 'up'), t('spare', 'none')];
    const f = parsePromText((await scrape(await app({ trunk: { state: 'up', registered: null, lastError: null, ...noProbe(), trunks } }))).text);
    expect(f.get('voice_alert_trunk_up')!.samples.map((s) => [s.labels.trunk, s.value])).toEqual([
      ['pbx', 0],
      ['carrier', 1],
      ['spare', 1],
    ]);
  });

  it('counts requests by route pattern and status, ids and unknown paths folded', async () => {
    const a = await app();
    const before = parsePromText((await scrape(a)).text);
    const count = (f: typeof before, endpoint: string, status: string) => sampleValue(f, 'voice_alert_http_requests_total', { endpoint, status, method: 'GET' }) ?? 0;
    const health = (await a.http.handle(new Request('http://localhost/healthz'))).status;
    await a.http.handle(new Request('http://localhost/api/calls/call_nope'));
    await a.http.handle(new Request('http://localhost/no/such/path'));
    await a.http.handle(new Request('http://localhost/another/unknown'));
    // afterResponse runs once the answer is out: give it its turn.
    await new Promise((r) => setTimeout(r, 10));
    const after = parsePromText((await scrape(a)).text);
    expect(count(after, '/healthz', String(health)) - count(before, '/healthz', String(health))).toBe(1);
    expect(count(after, '/api/calls/:id', '401') - count(before, '/api/calls/:id', '401')).toBe(1);
    expect(count(after, 'unmatched', '404') - count(before, 'unmatched', '404')).toBe(2);
    expect(after.get('voice_alert_http_requests_total')!.samples.some((s) => s.labels.endpoint!.includes('call_nope'))).toBe(false);
  });

  it('observes each group commit: its batch size and its seconds', async () => {
    const a = await app();
    const before = parsePromText((await scrape(a)).text);
    const acc = await a.store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    // Three writes in one turn of the event loop: one transaction carrying three.
    await Promise.all([1, 2, 3].map((i) => a.store.transaction((tx) => tx.usage.charge(acc.id, '2026-11', i))));
    const after = parsePromText((await scrape(a)).text);
    const delta = (name: string, labels: Record<string, string> = {}) => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    expect(delta('voice_alert_group_commit_batch_writes_count')).toBeGreaterThanOrEqual(1);
    expect(delta('voice_alert_group_commit_batch_writes_sum')).toBeGreaterThanOrEqual(3);
    if (a.store.dialect === 'sqlite') {
      // The batch of three lands above the "2" bucket.
      expect(delta('voice_alert_group_commit_batch_writes_bucket', { le: '5' }) - delta('voice_alert_group_commit_batch_writes_bucket', { le: '2' })).toBeGreaterThanOrEqual(1);
    } else {
      // PostgreSQL: a transaction per unit of work, each in the "1" bucket.
      expect(delta('voice_alert_group_commit_batch_writes_bucket', { le: '1' })).toBe(delta('voice_alert_group_commit_batch_writes_count'));
      expect(delta('voice_alert_group_commit_batch_writes_count')).toBeGreaterThanOrEqual(3);
    }
    expect(delta('voice_alert_group_commit_seconds_count')).toBe(delta('voice_alert_group_commit_batch_writes_count'));
  });

  it('with metrics.token set: 401 JSON without the bearer token or with another, 200 with it', async () => {
    const a = await app({ token: 's3cret-token' });
    const refused = { status: 'error', message: 'Metrics token required', code: 'metrics_token_required' };
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: 's3cret-token' }, { authorization: 'Basic s3cret-token' }]) {
      const r = await scrape(a, headers);
      expect(r.status).toBe(401);
      expect(r.type).toBe('application/json; charset=utf-8');
      expect(JSON.parse(r.text)).toEqual(refused);
    }
    const ok = await scrape(a, { authorization: 'Bearer s3cret-token' });
    expect(ok.status).toBe(200);
    expect(parsePromText(ok.text).has('voice_alert_calls')).toBe(true);
  });
});

describe('the strict text-format reader the tests above rely on', () => {
  it('rejects what a scraper would: a sample before its TYPE, a bad escape, a histogram whose +Inf is not its count', () => {
    expect(() => parsePromText('x 1\n')).toThrow(/before its TYPE/);
    expect(() => parsePromText('# TYPE x gauge\nx{a="b\\q"} 1\n')).toThrow(/bad escape/);
    expect(() => parsePromText('# TYPE x gauge\nx 1')).toThrow(/newline/);
    expect(() => parsePromText('# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n')).toThrow(/_count/);
    expect(parsePromText('# TYPE x gauge\nx{a="q\\"\\n"} 1.5e3\n').get('x')!.samples[0]).toEqual({ name: 'x', labels: { a: 'q"\n' }, value: 1500 });
  });
});
