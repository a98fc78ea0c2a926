import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

/**
 * README "Development": how the source is laid out, held so it does not drift back. Each
 * folder of src/ is one concept; imports between folders point one way (no cycle), and the
 * leaf folders that everything shares import nothing of ours. Comments cite the README, an
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

/**
 * README "Development", the registry (src/services.ts): every domain service is built there once
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

describe('the source layout (README "Development")', () => {
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

  it('comments cite the README, an RFC or the code, not documents outside the repository', () => {
    const outside = /\b(contract\.md|CONVENTIONS\.md|stack-findings(\.md)?)\b|\bcontract "/;
    const checked = [SRC, join(ROOT, 'test'), join(ROOT, 'scripts')].flatMap((d) => files(d, (n) => !/\.(wav|raw|pcap|db|png)$/.test(n)));
    expect(checked.length).toBeGreaterThan(300);
    const self = join(ROOT, 'test', 'layout', 'source-layout.test.ts');
    const citing = checked.filter((f) => f !== self && outside.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(citing).toEqual([]);
  });
});
