import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log';
import { metrics } from '../metrics';
import { createRenderCache } from './render-cache';
import type { Renderer } from './renderer';
import { createCachedSpeaker } from './speaker';
import { tempDir } from '../../test/helpers/tts-support';

/** A renderer that "speaks" 100 ms of a 22,050 Hz ramp, counting its renders. */
function fakeRenderer(): Renderer & { renders: number } {
  const r = {
    engine: 'fake',
    fingerprint: 'fake-1',
    renders: 0,
    async render() {
      r.renders++;
      return { samples: Int16Array.from({ length: 2205 }, (_, i) => (i % 200) * 100), sampleRate: 22_050 };
    },
  };
  return r;
}

const series = async <T extends { get(): Promise<{ values: { labels: Record<string, unknown>; value: number; metricName?: string }[] }> }>(
  m: T,
  labels: Record<string, string>,
  metricName?: string,
) =>
  (await m.get()).values.find((v) => (!metricName || v.metricName === metricName) && Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;

describe('speech metrics', () => {
  it('a render is timed into voice_alert_speech_render_seconds and counted a miss; the same text again is a hit, not timed', async () => {
    // The instruments are the process's own: other files in this worker may have counted
    // before (vitest.config.ts runs unit files without isolation), so each is read as a change.
    const before = {
      miss: await series(metrics.speechCache, { result: 'miss' }),
      hit: await series(metrics.speechCache, { result: 'hit' }),
      count: await series(metrics.speechRenderSeconds, { engine: 'fake' }, 'voice_alert_speech_render_seconds_count'),
      sum: await series(metrics.speechRenderSeconds, { engine: 'fake' }, 'voice_alert_speech_render_seconds_sum'),
    };
    const renderer = fakeRenderer();
    const speaker = createCachedSpeaker(renderer, 'sox', createRenderCache({ dir: join(tempDir(), 'cache'), maxBytes: 10_000_000, log: silentLogger() }));
    await speaker.speak('disk dolu');
    await speaker.speak('disk dolu');
    expect(renderer.renders).toBe(1);
    expect((await series(metrics.speechCache, { result: 'miss' })) - before.miss).toBe(1);
    expect((await series(metrics.speechCache, { result: 'hit' })) - before.hit).toBe(1);
    expect((await series(metrics.speechRenderSeconds, { engine: 'fake' }, 'voice_alert_speech_render_seconds_count')) - before.count).toBe(1);
    expect((await series(metrics.speechRenderSeconds, { engine: 'fake' }, 'voice_alert_speech_render_seconds_sum')) - before.sum).toBeGreaterThan(0);
  });
});
