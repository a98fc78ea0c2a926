import { describe, expect, test } from 'vitest';
import { manualClock } from '../../../test/helpers/memory-store';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { createPoliciesService } from '../../escalation';
import { createSchedulesService } from '../../schedules';

// Contract "Nothing silently calls nobody" in the panel: the fallback is set on the policies
// page, and the Overview shows an alert that reached nobody in red, saying why.
const PW = 'a-long-password-1';

async function setup() {
  const clock = manualClock('2026-11-15T09:00:00Z');
  const ctx = await panelApp({}, clock);
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', PW);
  return { ...ctx, clock, a, owner, page: `/panel/a/${a.id}/policies` };
}

describe('panel: nobody to call', () => {
  test('the owner sets, sees and clears the fallback on the policies page; a bad number keeps the draft', async () => {
    const { store, a, owner, page } = await setup();
    expect(await (await owner.get(page)).text()).toContain('data-fallback=""');
    let csrf = await owner.csrf(page);
    const saved = await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '0532 999 99 99' });
    expect(saved.status).toBe(303);
    expect(await store.fallbacks.get(a.id)).toMatchObject({ phoneNumber: '5329999999', personId: null });
    expect(await (await owner.get(page)).text()).toContain('data-fallback="5329999999"');

    csrf = await owner.csrf(page);
    const bad = await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '12345' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('12345');
    expect(await store.fallbacks.get(a.id)).toMatchObject({ phoneNumber: '5329999999' });

    expect((await owner.post(`/panel/a/${a.id}/fallback`, { _csrf: csrf, phone: '' })).status).toBe(303);
    expect(await store.fallbacks.get(a.id)).toBeNull();
  });

  test('the Overview shows an alert that reached nobody in red, with why', async () => {
    const { store, a, owner, app, clock } = await setup();
    const cred = await store.transaction((tx) => tx.credentials.create(a.id));
    // Its only layer starts in 2027: nobody on call now.
    const s = await createSchedulesService({ store, clock }).create(a.id, {
      name: 'backup',
      timeZone: 'Europe/Istanbul',
      layers: [{ participants: [{ name: 'Cem', number: '5323333333' }], shift: '7d', start: '2027-01-04T09:00' }],
    });
    expect(s.ok).toBe(true);
    expect((await createPoliciesService({ store, clock }).create(a.id, { name: 'night', steps: [{ schedules: ['backup'], wait_s: 60 }] })).ok).toBe(true);
    const r = await app.handle(
      new Request('http://localhost/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: cred.apiKey, api_secret: cred.apiSecret, error_message: 'Core switch down', policy: 'night' }),
      }),
    );
    const body = (await r.json()) as { alert_id: string; warning: string };
    expect(body.warning).toBe('Nobody to call: step 1: schedule backup has nobody on call');
    const html = await (await owner.get('/panel/overview')).text();
    const row = new RegExp(`<tr data-alert="${body.alert_id}">[\\s\\S]*?</tr>`).exec(html)?.[0] ?? '';
    expect(row).toContain('Core switch down');
    expect(row).toMatch(/<p class="notice error" role="alert" data-unroutable[^>]*>[^<]*step 1: schedule backup has nobody on call<\/p>/);
  });
});
