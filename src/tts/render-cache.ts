import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, type Logger } from '../log';

export interface RenderCacheOptions {
  /** `<data folder>/tts-cache`; created when missing. */
  dir: string;
  /** Total size cap; the least recently used entries go first. */
  maxBytes: number;
  log: Logger;
}

export interface RenderCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/**
 * Rendered audio on disk, one file per key, so an alert storm with the same text renders
 * once and a restart keeps what was rendered. Callers may rely on:
 * - `getOrCreate` runs `create` at most once at a time per key: concurrent callers of the
 *   same key share that one run (and its failure; failures are not cached);
 * - after any write the files total at most `maxBytes` (an entry larger than that is
 *   returned but not kept);
 * - recency survives restarts (file mtimes), so the LRU order is not lost on upgrade.
 */
export interface RenderCache {
  getOrCreate(key: string, create: () => Promise<Uint8Array>): Promise<Uint8Array>;
  stats(): RenderCacheStats;
}

export function cacheKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

export function createRenderCache(options: RenderCacheOptions): RenderCache {
  const { dir, maxBytes, log } = options;
  mkdirSync(dir, { recursive: true });
  // Map iteration order is insertion order: re-inserting on use makes it an LRU list.
  const sizes = new Map<string, number>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  const inFlight = new Map<string, Promise<Uint8Array>>();

  const existing = readdirSync(dir)
    .filter((f) => f.endsWith('.pcm'))
    .map((f) => ({ key: f.slice(0, -4), stat: statSync(join(dir, f)) }))
    .sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs);
  for (const e of existing) {
    sizes.set(e.key, e.stat.size);
    bytes += e.stat.size;
  }

  const file = (key: string) => join(dir, `${key}.pcm`);

  async function evict(): Promise<void> {
    for (const [key, size] of sizes) {
      if (bytes <= maxBytes) break;
      sizes.delete(key);
      bytes -= size;
      await rm(file(key), { force: true });
    }
  }

  async function read(key: string): Promise<Uint8Array | undefined> {
    if (!sizes.has(key)) return undefined;
    try {
      const data = new Uint8Array(await readFile(file(key)));
      const size = sizes.get(key)!;
      sizes.delete(key);
      sizes.set(key, size);
      const now = new Date();
      await utimes(file(key), now, now);
      return data;
    } catch {
      // Removed behind our back (another process's eviction, an operator): render again.
      const size = sizes.get(key);
      if (size !== undefined) bytes -= size;
      sizes.delete(key);
      return undefined;
    }
  }

  async function store(key: string, data: Uint8Array): Promise<void> {
    if (data.byteLength > maxBytes) return;
    const tmp = `${file(key)}.${process.pid}.tmp`;
    try {
      await writeFile(tmp, data);
      await rename(tmp, file(key)); // readers never see half a file
    } catch (e) {
      // A full disk must not fail the call: the audio is in hand, only the cache misses out.
      log.warn({ error: describeError(e), dir }, 'tts cache: cannot write entry');
      await rm(tmp, { force: true });
      return;
    }
    const old = sizes.get(key);
    if (old !== undefined) bytes -= old;
    sizes.delete(key);
    sizes.set(key, data.byteLength);
    bytes += data.byteLength;
    await evict();
  }

  return {
    getOrCreate(key, create) {
      const pending = inFlight.get(key);
      if (pending) return pending;
      const run = (async () => {
        const cached = await read(key);
        if (cached) {
          hits++;
          return cached;
        }
        misses++;
        const data = await create();
        await store(key, data);
        return data;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, run);
      return run;
    },
    stats: () => ({ hits, misses, entries: sizes.size, bytes }),
  };
}
