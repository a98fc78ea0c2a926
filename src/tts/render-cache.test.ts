import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log';
import { cacheKey, createRenderCache } from './render-cache';
import { tempDir } from '../../test/helpers/tts-support';

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const log = silentLogger();

describe('render cache', () => {
  it('creates once for concurrent requests of the same key and serves the rest from disk', async () => {
    const cache = createRenderCache({ dir: tempDir(), maxBytes: 10_000, log });
    let runs = 0;
    const create = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return bytes(100, 7);
    };
    const results = await Promise.all([1, 2, 3, 4].map(() => cache.getOrCreate('k', create)));
    expect(runs).toBe(1);
    for (const r of results) expect(r).toEqual(bytes(100, 7));
    expect(await cache.getOrCreate('k', create)).toEqual(bytes(100, 7));
    expect(runs).toBe(1);
    expect(cache.stats()).toMatchObject({ misses: 1, hits: 1, entries: 1, bytes: 100 });
  });

  it('does not cache a failure', async () => {
    const cache = createRenderCache({ dir: tempDir(), maxBytes: 10_000, log });
    await expect(cache.getOrCreate('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.getOrCreate('k', async () => bytes(10, 1))).toEqual(bytes(10, 1));
  });

  it('holds the size cap, evicting the least recently used first, also after a restart', async () => {
    const dir = tempDir();
    const cache = createRenderCache({ dir, maxBytes: 300, log });
    for (const k of ['a', 'b', 'c']) await cache.getOrCreate(k, async () => bytes(100, 1));
    await new Promise((r) => setTimeout(r, 15)); // distinct mtimes for the order on disk
    await cache.getOrCreate('a', async () => bytes(100, 2)); // a is now the most recent
    await cache.getOrCreate('d', async () => bytes(100, 3)); // over the cap: b goes
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 300 });
    expect(readdirSync(dir).sort()).toEqual(['a.pcm', 'c.pcm', 'd.pcm']);

    const again = createRenderCache({ dir, maxBytes: 300, log });
    expect(again.stats()).toMatchObject({ entries: 3, bytes: 300 });
    await again.getOrCreate('e', async () => bytes(100, 4)); // c is now the oldest
    expect(readdirSync(dir).sort()).toEqual(['a.pcm', 'd.pcm', 'e.pcm']);
  });

  it('returns but does not keep an entry larger than the cap', async () => {
    const dir = tempDir();
    const cache = createRenderCache({ dir, maxBytes: 50, log });
    expect((await cache.getOrCreate('big', async () => bytes(60, 1))).length).toBe(60);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('renders again when a file vanished behind its back', async () => {
    const dir = tempDir();
    const cache = createRenderCache({ dir, maxBytes: 1000, log });
    await cache.getOrCreate('k', async () => bytes(10, 1));
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'k.pcm'));
    expect(await cache.getOrCreate('k', async () => bytes(10, 9))).toEqual(bytes(10, 9));
  });

  it('keys differ by every part', () => {
    expect(cacheKey('espeak-ng -v tr', 'a')).not.toBe(cacheKey('espeak-ng -v en', 'a'));
    expect(cacheKey('x', 'ab')).not.toBe(cacheKey('xa', 'b'));
  });
});
