import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log';
import { instrumentRegistry } from '../metrics';
import { createEngine } from '.';

/** A logger whose lines the test reads. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: createLogger('info', sink), lines };
}

/** A tick the test ends by hand. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('the engine (src/engine)', () => {
  it('a tick asked for while one runs is one more tick right after it, shared by every ask: never two at once', async () => {
    const { log } = capturedLog();
    let ticks = 0;
    let inside = 0;
    let most = 0;
    const gates = [gate(), gate()] as const;
    const engine = createEngine({
      log,
      loops: [
        {
          name: 'slow',
          everyMs: 0,
          tick: async () => {
            const n = ++ticks;
            most = Math.max(most, ++inside);
            await gates[n - 1]?.opened;
            inside--;
            return n;
          },
        },
      ],
    });
    const first = engine.tick('slow');
    // Work queued while the first tick runs may come after it read its work: the asks share one more tick.
    const second = engine.tick('slow');
    const third = engine.tick('slow');
    engine.wake('slow');
    expect(ticks).toBe(1);
    gates[0].open();
    expect(await first).toBe(1);
    await expect.poll(() => ticks).toBe(2);
    gates[1].open();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    expect(ticks).toBe(2);
    expect(most).toBe(1);
    await engine.stop();
  });

  it('a tick asked for during the last tick before stop does not run after the stop', async () => {
    const { log } = capturedLog();
    let ticks = 0;
    const g = gate();
    const engine = createEngine({ log, loops: [{ name: 'slow', everyMs: 0, tick: async () => (ticks++, await g.opened) }] });
    void engine.tick('slow');
    const asked = engine.tick('slow');
    const stopped = engine.stop();
    g.open();
    await stopped;
    await asked;
    expect(ticks).toBe(1);
  });

  it('a failing tick is logged once as { loop, error } and the loop goes on at its interval', async () => {
    const { log, lines } = capturedLog();
    let ticks = 0;
    const engine = createEngine({
      log,
      loops: [
        {
          name: 'flaky',
          everyMs: 5,
          tick: async () => {
            ticks++;
            if (ticks === 1) throw new Error('database gone');
          },
        },
      ],
    });
    // A caller that waits for the failing tick, beside the engine's own: still one line.
    const joined = engine.tick('flaky');
    await expect(joined).rejects.toThrow('database gone');
    await engine.start();
    await expect.poll(() => ticks, { timeout: 2000, interval: 5 }).toBeGreaterThanOrEqual(3);
    await engine.stop();
    const failures = lines.filter((l) => l.msg === 'loop tick failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ loop: 'flaky', error: expect.stringContaining('database gone'), level: 50 });
  });

  it('stops in the declared order, each loop after its tick under way ended, halt before the wait', async () => {
    const { log } = capturedLog();
    const said: string[] = [];
    const g = gate();
    const loop = (name: string, tick: () => Promise<void> = async () => {}) => ({
      name,
      everyMs: 0,
      tick,
      begin: async () => void said.push(`begin ${name}`),
      halt: () => void said.push(`halt ${name}`),
      end: async () => void said.push(`end ${name}`),
    });
    const engine = createEngine({
      log,
      loops: [
        loop('a'),
        loop('b', async () => {
          await g.opened;
          said.push('tick b ended');
        }),
        loop('c'),
      ],
      stopOrder: ['c', 'b', 'a'],
    });
    await engine.start();
    void engine.tick('b');
    const stopped = engine.stop();
    await Bun.sleep(10);
    expect(said).toEqual(['begin a', 'begin b', 'begin c', 'halt c', 'end c', 'halt b']); // b waits for its tick
    g.open();
    await stopped;
    expect(said.slice(6)).toEqual(['tick b ended', 'end b', 'halt a', 'end a']);
  });

  it('refuses a stop order that leaves a loop out or names one twice', () => {
    const { log } = capturedLog();
    const loops = [
      { name: 'a', everyMs: 0, tick: async () => {} },
      { name: 'b', everyMs: 0, tick: async () => {} },
    ];
    expect(() => createEngine({ log, loops, stopOrder: ['a'] })).toThrow(/missing: b/);
    expect(() => createEngine({ log, loops, stopOrder: ['a', 'b', 'a'] })).toThrow(/every loop once/);
    expect(() => createEngine({ log, loops: [...loops, loops[0]!] })).toThrow(/two loops named a/);
  });

  it('times every tick on the metrics registry: voice_alert_loop_tick_seconds{loop}', async () => {
    const { log } = capturedLog();
    const engine = createEngine({
      log,
      loops: [{ name: 'timed-loop', everyMs: 0, tick: () => Bun.sleep(20) }],
    });
    await engine.tick('timed-loop');
    await engine.tick('timed-loop');
    const text = await instrumentRegistry().metrics();
    expect(text).toMatch(/^voice_alert_loop_tick_seconds_count\{loop="timed-loop"\} 2$/m);
    const sum = Number(/^voice_alert_loop_tick_seconds_sum\{loop="timed-loop"\} (\S+)$/m.exec(text)![1]);
    expect(sum).toBeGreaterThanOrEqual(0.03);
    await engine.stop();
  });

  it('wake ticks a loop now, between its intervals; an unknown name throws', async () => {
    const { log } = capturedLog();
    let ticks = 0;
    const engine = createEngine({ log, loops: [{ name: 'hourly', everyMs: 3_600_000, tick: async () => void ticks++ }] });
    await engine.start();
    await expect.poll(() => ticks).toBe(1); // the first at start
    engine.wake('hourly');
    await expect.poll(() => ticks).toBe(2);
    expect(() => engine.wake('nosuch')).toThrow(/no loop named nosuch/);
    await engine.stop();
    engine.wake('hourly'); // after stop, a wake still ticks at most once: no timer comes back
    await expect.poll(() => ticks).toBe(3);
    await Bun.sleep(20);
    expect(ticks).toBe(3);
  });
});
