import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

/**
 * docs/development.md: how the source is laid out, held so it does not drift back. Each
 * folder of src/ is one concept; imports between folders point one way (no cycle), and the
 * leaf folders that everything shares import nothing of ours. Comments cite the docs, an
 * RFC or the code: never a document that is not in the repository.
 */
const SRC = join(ROOT, 'src');

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : files(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** A folder of src/, or a file directly in src/ (clock.ts, appliance.ts …): each its own unit. */
const unitOf = (path: string) => relative(SRC, path).split('/')[0]!.replace(/\.tsx?$/, '');

/** Which units each unit imports (type-only imports too: they tie concepts just the same). */
function unitImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of files(SRC, (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n))) {
    const from = unitOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+['"](\.{1,2}\/[^'"]*)['"]/gm)) {
      const target = resolve(dirname(file), m[1]!);
      if (!target.startsWith(SRC + '/')) continue;
      const to = unitOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  return edges;
}

/** Every cycle's units, as found by a depth-first walk (empty: the imports form a DAG). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (u: string) => {
    state.set(u, 'open');
    path.push(u);
    for (const v of edges.get(u) ?? []) {
      if (state.get(v) === 'open') found.push([...path.slice(path.indexOf(v)), v]);
      else if (!state.has(v)) visit(v);
    }
    path.pop();
    state.set(u, 'done');
  };
  for (const u of [...edges.keys()].sort()) if (!state.has(u)) visit(u);
  return found;
}

describe('the source layout (docs/development.md)', () => {
  const edges = unitImports();

  it('no two folders of src/ import each other, directly or around a circle', () => {
    expect(edges.size).toBeGreaterThan(20); // the walk really read the imports
    expect(cycles(edges)).toEqual([]);
  });

  it('the shared leaves (G.711, signing, digest, the clock) import nothing of ours; the store does not import metrics', () => {
    for (const leaf of ['g711', 'signing', 'digest', 'clock']) expect([leaf, [...(edges.get(leaf) ?? [])]]).toEqual([leaf, []]);
    expect(edges.get('store')?.has('metrics')).toBe(false);
  });

  it('the cycle check finds a cycle when there is one', () => {
    const made = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycles(made)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('comments cite the docs, an RFC or the code, not documents outside the repository', () => {
    const outside = /\b(contract\.md|CONVENTIONS\.md|stack-findings(\.md)?)\b|\bcontract "/;
    const checked = [SRC, join(ROOT, 'test'), join(ROOT, 'scripts')].flatMap((d) => files(d, (n) => !/\.(wav|raw|pcap|db|png)$/.test(n)));
    expect(checked.length).toBeGreaterThan(300);
    const self = join(ROOT, 'test', 'layout', 'source-layout.test.ts');
    const citing = checked.filter((f) => f !== self && outside.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(citing).toEqual([]);
  });
});

/** Production source files (tests aside), relative to the repository's root. */
const productionFiles = () => files(SRC, (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n)).map((f) => relative(ROOT, f));

/**
 * Files that may arm a setTimeout, each for a reason other than a background loop (those are
 * engine entries: src/engine). A new file with a timer fails until it is listed here with why;
 * an entry whose file no longer arms one is harmless.
 */
const ONE_SHOT_TIMERS: Record<string, string> = {
  'src/engine/loop.ts': 'the engine itself: the next tick of each loop',
  'src/until.ts': 'a bound on one wait',
  'src/metrics/store-readings.ts': 'a scrape waits a bounded time for the store',
  'src/http/health.ts': 'a bounded wait for the database probe',
  'src/http/https-listener.ts': 'an old listener drains, then closes',
  'src/tts/run-process.ts': 'a speech engine process timeout',
  'src/calls/trunk-set.ts': "a trunk's restart back-off after a failed start",
  'src/calls/run-claimed-call.ts': "a call's watchdog",
  'src/calls/dialer.ts': 'the shutdown grace of answered calls',
  'src/callbacks/sender.ts': "one callback request's timeout",
  'src/sip/ua/registration.ts': "REGISTER's bound and its refresh or retry (RFC 3261 §10.2.4), re-armed by each outcome",
  'src/sip/ua/stop-wait.ts': 'a bounded wait at stop',
  'src/sip/ua/invite-transaction.ts': 'ring and silence timers of one INVITE',
  'src/sip/ua/call-limit.ts': 'calls.max_call_s of one call',
  'src/sip/ua/options-probe.ts': "one OPTIONS probe's bound (Timer F)",
  'src/sip/ua/session-timer.ts': "one call's session refresh (RFC 4028), re-armed by each refresh",
  'src/sip/ua/answer-call.ts': "an inbound call's ACK and NOTIFY waits",
  'src/sip/transport/tcp-transport.ts': 'a socket that does not close is destroyed',
  'src/sip/transport/tls-transport.ts': 'a socket that does not close is destroyed',
  'src/sip/transport/tcp-listener.ts': 'a socket that does not close is destroyed',
  'src/sip/transport/response-routes.ts': "a response route is forgotten after 64·T1",
  'src/sip/transport/retransmit.ts': 'SIP retransmission timers A/E/G and their give-up (RFC 3261 §17)',
  'src/sip/rtp/pacer.ts': "the 20 ms media clock of one call's RTP",
  'src/store/sql/postgres/waiting.ts': 'pauses and deadlines of one database wait',
  'src/store/sql/postgres/database.ts': "a transaction's deadline closes its connection",
  'src/store/sql/sqlite/write-lock.ts': 'a pause between tries for the write lock',
  'src/voice-desk/session.ts': "a desk call's idle timeout",
  'src/panel/login.ts': 'the delay after a failed login',
};

describe('one engine, one lease (issue 44)', () => {
  const sources = productionFiles().map((f) => ({ f, text: readFileSync(join(ROOT, f), 'utf8') }));

  it('no setInterval outside src/engine: every periodic loop is an engine entry', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.filter(({ f, text }) => !f.startsWith('src/engine/') && /\bsetInterval\s*\(/.test(text)).map(({ f }) => f)).toEqual([]);
  });

  it('setTimeout only where a one-shot timer is listed with its reason, never a loop of its own', () => {
    const unlisted = sources.filter(({ f, text }) => /\bsetTimeout\s*\(/.test(text) && !(f in ONE_SHOT_TIMERS)).map(({ f }) => f);
    expect(unlisted).toEqual([]);
  });

  it('lease claim SQL is written only in store/lease.ts (the calls queue keeps its own claim; migrations aside)', () => {
    // The calls queue's claim (bundling, pacing, a call's lease renewed while it rings) stays
    // where it is: store/call-claim.ts and the state changes in store/calls.ts.
    const allowed = new Set(['src/store/lease.ts', 'src/store/call-claim.ts', 'src/store/calls.ts']);
    const claimSql = /\b(?:watch_)?lease_(?:until|owner)\s*(?:=|<|>|IS\b)/;
    const writing = sources.filter(({ f, text }) => !f.startsWith('src/store/schema/') && !allowed.has(f) && claimSql.test(text)).map(({ f }) => f);
    expect(writing).toEqual([]);
    // The rule bites: the copies it replaced (main at 90ea014) each matched it.
    expect(['UPDATE heartbeats SET lease_until = ${ln} + $leaseMs', 'AND (watch_lease_until IS NULL OR', 'WHERE lease_owner = $owner'].every((t) => claimSql.test(t))).toBe(true);
  });
});
