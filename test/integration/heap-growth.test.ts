import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HEAP_GROWTH_OPTION } from '../../src/heap-growth';
import { applianceDir, type RunningAppliance } from '../helpers/appliance';

/**
 * The compiled `serve` runs with the heap's growth set (src/heap-growth.ts, docs/operations.md
 * "Memory"): in place, so the PID the service manager started is the one serving, with the option
 * in its environment; an operator's own value is left as it is.
 */
let running: RunningAppliance[] = [];
afterEach(async () => {
  for (const r of running) await r.stop();
  running = [];
});

function environmentOf(pid: number): Map<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

describe('the heap\'s growth', () => {
  it('serve runs again in place with the option set: the PID started is the one answering', async () => {
    const app = await applianceDir().start();
    running.push(app);
    expect(environmentOf(app.process.pid!).get(HEAP_GROWTH_OPTION)).toBe('100000000');
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it('keeps the operator\'s own value', async () => {
    const app = await applianceDir().start([], { [HEAP_GROWTH_OPTION]: '16384' });
    running.push(app);
    expect(environmentOf(app.process.pid!).get(HEAP_GROWTH_OPTION)).toBe('16384');
  });
});
