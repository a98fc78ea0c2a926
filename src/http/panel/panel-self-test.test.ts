import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';

const PW = 'a-long-password-1';

describe('panel overview: the voice-path self-test (docs/telephony.md "Voice-path self-test")', () => {
  test("shows each trunk's newest self-test, passed or failed with its reason; nothing before the first", async () => {
    const clock = manualClock('2026-11-25T09:00:00Z');
    const { app, store, users } = await panelApp({}, clock);
    await users.createAdmin('admin', PW);
    const admin = browser(app);
    await admin.login('admin', PW);
    expect(await (await admin.get('/panel/overview')).text()).not.toContain('data-testid="self-tests"');

    const add = (trunk: string, ok: boolean, reason: string, at: number) =>
      store.transaction((tx) => tx.selfTests.add({ trunk, number: '600', expect: 'echo', ok, reason, echoRatio: ok ? 1 : 0, origin: 'schedule', startedAt: at - 1500, finishedAt: at }));
    const t0 = clock();
    await add('pbx', true, 'echo: 50 of 50 frames came back in order (100 %)', t0);
    await add('pbx', false, 'no echo: no RTP at all came back (50 frames sent)', t0 + 60_000);
    await add('carrier', true, 'answered; our RTP flowed for 5 s', t0 + 1000);

    for (const path of ['/panel/overview', '/panel/overview/live']) {
      const html = await (await admin.get(path)).text();
      const shown = [...html.matchAll(/data-testid="self-test-([^"]+)" data-state="([^"]+)"/g)].map((m) => [m[1], m[2]]);
      expect(shown).toEqual([
        ['carrier', 'passed'],
        ['pbx', 'failed'],
      ]);
      expect(html).toContain('no echo: no RTP at all came back (50 frames sent)');
      expect(html).not.toContain('50 of 50 frames'); // the older pbx result is not the newest
    }
  });
});
