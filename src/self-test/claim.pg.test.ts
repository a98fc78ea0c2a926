import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testStoreUrl } from '../../test/helpers/postgres';
import { systemClock } from '../clock';
import { createStore, type Store } from '../store';

// docs/telephony.md "Voice-path self-test" under high availability: two appliances on one
// PostgreSQL claim a trunk's due self-test at once; the database's clock and FOR UPDATE SKIP LOCKED
// give it to exactly one.
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

describe('self-test schedule on one PostgreSQL, two appliances', () => {
  it('a due trunk is claimed by exactly one; finished, it is due again only after the interval', async () => {
    const url = testStoreUrl()!;
    const dir = mkdtempSync(join(tmpdir(), 'va-st-pg-'));
    const open = () => createStore({ url, path: join(dir, 'voice-alert.db'), busyTimeoutMs: 1000, clock: systemClock });
    const a = await open();
    const b = await open();
    stores.push(a, b);
    await a.transaction((tx) => tx.selfTests.schedule('pbx', 0, Date.now()));
    await b.transaction((tx) => tx.selfTests.schedule('pbx', 60_000, Date.now())); // exists: unchanged
    for (let round = 0; round < 5; round++) {
      const lease = (owner: string) => ({ owner, ms: 30_000 });
      const won = await Promise.all([
        a.transaction((tx) => tx.selfTests.claim('pbx', Date.now(), lease(`a${round}`))),
        b.transaction((tx) => tx.selfTests.claim('pbx', Date.now(), lease(`b${round}`))),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const owner = won[0] ? `a${round}` : `b${round}`;
      expect(await a.transaction((tx) => tx.selfTests.finish('pbx', owner, 0, Date.now()))).toBe(true);
    }
    await a.transaction((tx) => tx.selfTests.claim('pbx', Date.now(), { owner: 'x', ms: 30_000 }));
    expect(await a.transaction((tx) => tx.selfTests.finish('pbx', 'x', 3_600_000, Date.now()))).toBe(true);
    expect(await b.transaction((tx) => tx.selfTests.claim('pbx', Date.now(), { owner: 'y', ms: 30_000 }))).toBe(false);

    const at = Date.now();
    await a.transaction((tx) => tx.selfTests.add({ trunk: 'pbx', number: '600', expect: 'echo', ok: false, reason: 'no echo', echoRatio: 0.25, origin: 'cli', startedAt: at, finishedAt: at + 1 }));
    await b.transaction((tx) => tx.selfTests.add({ trunk: 'pbx', number: '600', expect: 'echo', ok: true, reason: 'echo', echoRatio: 0.9, origin: 'schedule', startedAt: at + 2, finishedAt: at + 3 }));
    expect((await a.selfTests.latestPerTrunk()).map((r) => [r.trunk, r.ok, r.echoRatio])).toEqual([['pbx', true, 0.9]]);
  });
});
