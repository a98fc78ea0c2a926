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

/** Production files of src/ (tests and test helpers aside). */
const productionFiles = () => files(SRC, (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n));

/** Where each relative import of `file` points (static, re-exports, side-effect and dynamic imports), resolved to a path without extension. */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+['"](\.{1,2}\/[^'"]*)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]*)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]*)['"]\s*\)/g),
  ];
  return specs.map((m) => resolve(dirname(file), m[1]!));
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

/**
 * docs/development.md "Services and loops", the registry (src/services.ts): every domain service is built there once
 * and handed to the server, the panel and the CLI. A service factory is, by convention:
 * - a function exported from src/ named `create<Name>Service` or `create<Name>Services`
 *   (a new service is caught by its name alone), and
 * - any other `create…(` the registry calls (createAlertActions, createPanelReads,
 *   createPasswordChanges: names older than the rule; being built by the registry makes them services).
 * The registry's own `createServices` is what everyone else calls.
 */
const REGISTRY_FACTORY = 'createServices';

function serviceFactories(sources: Map<string, string>, registry: string): Set<string> {
  const names = new Set<string>();
  for (const text of sources.values()) {
    for (const m of text.matchAll(/\bexport\s+(?:async\s+)?function\s+(create\w*Services?)\b/g)) names.add(m[1]!);
  }
  for (const m of (sources.get(registry) ?? '').matchAll(/\b(create[A-Z]\w*)\s*\(/g)) names.add(m[1]!);
  names.delete(REGISTRY_FACTORY);
  return names;
}

/** `file: factory` for each call of a service factory outside the registry (its declaration aside). */
function constructionsOutsideRegistry(sources: Map<string, string>, registry: string): string[] {
  const factories = serviceFactories(sources, registry);
  const found: string[] = [];
  for (const [file, text] of sources) {
    if (file === registry) continue;
    for (const m of text.matchAll(/\b(create[A-Z]\w*)\s*\(/g)) {
      if (!factories.has(m[1]!) || /function\s+$/.test(text.slice(Math.max(0, m.index! - 20), m.index))) continue;
      found.push(`${file}: ${m[1]}`);
    }
  }
  return found;
}

/** Factories named as services (`create…Service(s)`) that the registry does not build. */
function servicesNotInRegistry(sources: Map<string, string>, registry: string): string[] {
  const built = new Set([...(sources.get(registry) ?? '').matchAll(/\b(create[A-Z]\w*)\s*\(/g)].map((m) => m[1]!));
  return [...serviceFactories(sources, registry)].filter((name) => /Services?$/.test(name) && !built.has(name)).sort();
}

describe('the source layout (docs/development.md)', () => {
  const edges = unitImports();

  it('no two folders of src/ import each other, directly or around a circle', () => {
    expect(edges.size).toBeGreaterThan(20); // the walk really read the imports
    expect(cycles(edges)).toEqual([]);
  });

  it('the shared leaves (G.711, signing, digest, the clock, ids) import nothing of ours; the store does not import metrics', () => {
    for (const leaf of ['g711', 'signing', 'digest', 'clock', 'ids', 'names']) expect([leaf, [...(edges.get(leaf) ?? [])]]).toEqual([leaf, []]);
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

  describe('services are built in the registry (src/services.ts) only, tests aside', () => {
    const registry = join(SRC, 'services.ts');
    const sources = new Map(files(SRC, (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n)).map((f) => [f, readFileSync(f, 'utf8')]));

    it('no production file outside the registry calls a service factory', () => {
      const factories = serviceFactories(sources, registry);
      // The convention really found the services: by name and through the registry.
      expect(factories).toContain('createSchedulesService');
      expect(factories).toContain('createAlertActions');
      expect(factories.size).toBeGreaterThan(12);
      expect(constructionsOutsideRegistry(sources, registry).map((f) => relative(ROOT, f))).toEqual([]);
    });

    it('every create…Service(s) factory is one the registry builds', () => {
      expect(servicesNotInRegistry(sources, registry)).toEqual([]);
    });

    it('the check finds a service built outside the registry, by its name or by the registry\'s list', () => {
      const made = new Map([
        ['src/services.ts', 'export function createServices(d) { return { foo: createFooService(d), reads: createReads(d) }; }'],
        ['src/foo/service.ts', 'export function createFooService(d) { return {}; }'],
        ['src/foo/reads.ts', 'export function createReads(d) { return {}; }'],
        ['src/bar/index.ts', 'export async function createBarService(d) { return {}; }'],
        ['src/http/route.ts', 'const foo = createFooService(deps);\nconst reads = createReads (deps);\nconst bar = createBarService(deps);\nconst all = createServices(deps);'],
      ]);
      expect(constructionsOutsideRegistry(made, 'src/services.ts')).toEqual([
        'src/http/route.ts: createFooService',
        'src/http/route.ts: createReads',
        'src/http/route.ts: createBarService',
      ]);
      // A new service nobody registered: found by its name.
      expect(servicesNotInRegistry(made, 'src/services.ts')).toEqual(['createBarService']);
      made.delete('src/http/route.ts');
      expect(constructionsOutsideRegistry(made, 'src/services.ts')).toEqual([]);
    });
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
const productionPaths = () => productionFiles().map((f) => relative(ROOT, f));

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
  'src/trunks/trunk-set.ts': "a trunk's restart back-off after a failed start",
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
  'src/sms/at-channel.ts': "one AT command's answer and its text prompt",
  'src/sms/modem.ts': 'a lost modem is opened again after sms.reopen_s; a text waits a bounded time for its modem',
  'src/importers/source-http.ts': "the wait a source's 429 asks for, bounded",
};

describe('one engine, one lease (issue 44)', () => {
  const sources = productionPaths().map((f) => ({ f, text: readFileSync(join(ROOT, f), 'utf8') }));

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
describe('what production code may import (issue 44)', () => {
  it('no production file imports from test/: test helpers live in test/helpers, beside nothing the binary ships', () => {
    const TEST = join(ROOT, 'test');
    const found = productionFiles().flatMap((f) => importsOf(f).filter((t) => t === TEST || t.startsWith(TEST + '/')).map((t) => `${relative(ROOT, f)} -> ${relative(ROOT, t)}`));
    expect(productionFiles().length).toBeGreaterThan(300);
    expect(found).toEqual([]);
  });

  it('the import walk sees every kind of relative import', () => {
    const text = [
      "import { a } from '../a';",
      "export type { B } from './b';",
      "import '../../test/helpers/c';",
      'const d = () => import("../d/index");',
      "import { e } from 'elysia';",
    ].join('\n');
    expect(importsOf(join(SRC, 'calls', 'x.ts'), text).map((t) => relative(ROOT, t))).toEqual(['src/a', 'src/calls/b', 'test/helpers/c', 'src/d/index']);
  });

  it('prom-client and pino are loaded in one place each, when first used: a value import elsewhere would load them in every short CLI command', () => {
    // docs/development.md "The suite's length": ~40 ms and ~25 ms of a command's start.
    const loads = (text: string, pkg: string) =>
      new RegExp(`^\\s*(?:import|export)\\s+(?!type\\b)[^'";]*?from\\s+['"]${pkg}(?:/[^'"]*)?['"]|\\b(?:require|import)\\(\\s*['"]${pkg}(?:/[^'"]*)?['"]`, 'm').test(text);
    const where = (pkg: string) => productionPaths().filter((f) => loads(readFileSync(join(ROOT, f), 'utf8'), pkg));
    expect(where('prom-client')).toEqual(['src/metrics/prom-client.ts']);
    expect(where('pino')).toEqual(['src/log/index.ts']);
    // Both load it inside a function: the module itself imports only its types.
    expect(loads("import { Counter } from 'prom-client';", 'prom-client')).toBe(true);
    expect(loads("import type { Registry } from 'prom-client';", 'prom-client')).toBe(false);
    expect(loads("import pino from 'pino';", 'pino')).toBe(true);
    for (const [f, pkg] of [['src/metrics/prom-client.ts', 'prom-client'], ['src/log/index.ts', 'pino']] as const) {
      expect(readFileSync(join(ROOT, f), 'utf8')).not.toMatch(new RegExp(`^import (?!type\\b).*['"]${pkg}`, 'm'));
    }
  });
});

/**
 * How an error is named in a log line's fields: `error: describeError(e)` (src/log/describe-error.ts:
 * its type and message, no stack), so one query finds every failure. Any other name for it
 * (`err`, `cause`, `exception`, or another field holding describeError's text) is a finding.
 */
function errorFieldFindings(text: string): string[] {
  const found: string[] = [];
  for (const call of text.matchAll(/\.(?:error|warn)\(\s*\{([^{}]*)\}/g)) {
    const fields = call[1]!;
    for (const key of fields.matchAll(/(?:^|,)\s*(\w+)\s*(?=[:,]|$)/g)) if (['err', 'cause', 'exception', 'e'].includes(key[1]!)) found.push(key[1]!);
    for (const key of fields.matchAll(/(\w+)\s*:\s*describeError\(/g)) if (key[1] !== 'error') found.push(key[1]!);
  }
  return found;
}



describe('one name for an error in a log line (issue 44)', () => {
  it('every log.error / log.warn names its error `error`', () => {
    const found: Record<string, number> = {};
    for (const f of productionFiles()) {
      const n = errorFieldFindings(readFileSync(f, 'utf8')).length;
      if (n > 0) found[relative(ROOT, f)] = n;
    }
    expect(found).toEqual({});
  });

  it('the check finds the other names and passes `error`', () => {
    const text = [
      "log.error({ err: e }, 'x');",
      "d.log.warn({ call: id, err }, 'x');",
      "log.warn({ reason: describeError(e) }, 'x');",
      "log.error({ error: describeError(e), requestId }, 'x');",
      "log.warn({ reason: 'no trunk' }, 'x');",
    ].join('\n');
    expect(errorFieldFindings(text)).toEqual(['err', 'err', 'reason']);
  });
});

/**
 * Imports that reach into another folder past its index.ts (`../store/calls` where `../store`
 * exports what is needed): each folder's index is its interface (docs/development.md "Development"), the rest
 * its own business. Counted, not forbidden yet: the count may only fall (lower it when you fix
 * some; issue 44 found 58 and fixed 8).
 */
const INTERNALS_IMPORTED_AT_MOST = 50;

function internalsImported(): string[] {
  const found: string[] = [];
  for (const file of productionFiles()) {
    for (const target of importsOf(file)) {
      if (!target.startsWith(SRC + '/')) continue;
      const folder = unitOf(target);
      if (folder === unitOf(file) || !statSync(join(SRC, folder, 'index.ts'), { throwIfNoEntry: false })?.isFile()) continue;
      if (target === join(SRC, folder) || target === join(SRC, folder, 'index')) continue;
      found.push(`${relative(ROOT, file)} -> ${relative(SRC, target)}`);
    }
  }
  return found;
}

describe("a folder's index.ts is its interface (issue 44)", () => {
  it(`no more than ${INTERNALS_IMPORTED_AT_MOST} imports reach past another folder's index.ts, and the count only falls`, () => {
    const found = internalsImported();
    expect(found.length).toBeGreaterThan(0); // the walk really ran; once none is left, make this rule absolute
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(INTERNALS_IMPORTED_AT_MOST);
  });
});

