import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

/**
 * scripts/test runs the whole suite as three vitest runs (docs/development.md "The suite's
 * length"), each naming its projects. A project added to vitest.config.ts and to none of them
 * would never run in CI; one named twice would run twice.
 */
const projectsOfConfig = () => [...readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8').matchAll(/^\s*name: '([a-z-]+)',$/gm)].map((m) => m[1]!);

/** Each `vitest run --project …` line of scripts/test (the branch without arguments), its projects. */
const projectsOfRuns = () =>
  readFileSync(join(ROOT, 'scripts', 'test'), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#') && line.includes('--project'))
    .map((line) => [...line.matchAll(/--project ([a-z-]+)/g)].map((m) => m[1]!));

describe('scripts/test without arguments', () => {
  it('runs every project of vitest.config.ts once, in one of its runs', () => {
    const runs = projectsOfRuns();
    expect(runs).toHaveLength(3);
    const named = runs.flat();
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual([...projectsOfConfig()].sort());
    expect(projectsOfConfig().length).toBeGreaterThanOrEqual(10);
  });

  it('runs the CPU-bound projects at a lower priority and the peer projects at the normal one', () => {
    const lines = readFileSync(join(ROOT, 'scripts', 'test'), 'utf8').split('\n');
    const cpu = lines.find((l) => l.includes('--project main-binary'))!;
    const peers = lines.find((l) => l.includes('--project sip-peers'))!;
    expect(cpu).toMatch(/ nice -n [1-9]\d* /);
    expect(peers).not.toContain('nice');
  });
});
