import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from '../../test/helpers/memory-store';
import type { Store } from '../store';
import { createScrapeRegistry } from './scrape-gauges';

const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('voice_alert_self_test_ok (docs/telephony.md "Voice-path self-test")', () => {
  it("one series per trunk with a result: 1 passed, 0 failed; none before a trunk's first self-test", async () => {
    const store = await tempStore(Date.now);
    stores.push(store);
    let results: { trunk: string; ok: boolean }[] = [];
    const registry = createScrapeRegistry({ store, clock: Date.now, selfTestResults: () => results });
    const lines = async () => (await registry.metrics()).split('\n').filter((l) => l.startsWith('voice_alert_self_test_ok{'));
    expect(await lines()).toEqual([]);
    results = [
      { trunk: 'pbx', ok: false },
      { trunk: 'carrier', ok: true },
    ];
    expect(await lines()).toEqual(['voice_alert_self_test_ok{trunk="pbx"} 0', 'voice_alert_self_test_ok{trunk="carrier"} 1']);
  });
});
