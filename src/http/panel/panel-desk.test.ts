import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';

// docs/telephony.md "Voice desk: calls in": the panel's desk page, as `desk pin` and `desk set-policy`.

async function setup() {
  const ctx = await acmeOwnerOn(await panelApp({ language: 'en' }, undefined, undefined, { voice_desk: { enabled: true } }), 'desk');
  return { ...ctx, csrf: await ctx.owner.csrf(ctx.page), desk: ctx.deps.services.desk };
}

describe('panel: voice desk', () => {
  test('a new PIN asks first, is shown once and works; the old one stops working', async () => {
    const { owner, page, csrf, a, desk } = await setup();
    expect(await (await owner.get(page)).text()).toContain('none yet: nobody can use the desk');
    const asked = await owner.post(`${page}/pin`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('The old one stops working at once');
    expect((await desk.setup(a.id)).hasPin).toBe(false);
    const made = await (await owner.post(`${page}/pin`, { _csrf: csrf, confirm: '1' })).text();
    const pin = /<code id="desk-pin"[^>]*>(\d+)<\/code>/.exec(made)![1]!;
    expect(pin).toMatch(/^\d{8}$/);
    expect(await desk.accountByPin(pin)).toBe(a.id);
    const again = await (await owner.post(`${page}/pin`, { _csrf: csrf, confirm: '1' })).text();
    const second = /<code id="desk-pin"[^>]*>(\d+)<\/code>/.exec(again)![1]!;
    expect(await desk.accountByPin(pin)).toBe(second === pin ? a.id : null);
    const later = await (await owner.get(page)).text();
    expect(later).toContain('set (only a salted hash is kept)');
    expect(later).not.toContain(second);
  });

  test('the policy keypad 0 follows; another account\'s policy or page is not found; bad input changes nothing', async () => {
    const { owner, page, csrf, a, b, desk, deps, store } = await setup();
    expect(await (await owner.get(page)).text()).toContain('No escalation policies yet');
    const p = await deps.services.policies.create(a.id, { name: 'oncall', steps: [{ numbers: ['5321111111'] }] });
    const theirs = await deps.services.policies.create(b.id, { name: 'theirs', steps: [{ numbers: ['5321111111'] }] });
    if (!p.ok || !theirs.ok) throw new Error('policies');
    expect((await owner.post(`${page}/policy`, { _csrf: csrf, policy: p.policy.id })).status).toBe(303);
    expect((await desk.setup(a.id)).policy?.id).toBe(p.policy.id);
    expect(await (await owner.get(`${page}?policy`)).text()).toMatch(/<option value="pol_\w+" selected>oncall<\/option>/);
    const bad = await owner.post(`${page}/policy`, { _csrf: csrf, policy: theirs.policy.id });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('No such escalation policy.');
    expect((await store.voiceDesk.get(a.id))!.policyId).toBe(p.policy.id);
    expect((await owner.get(`/panel/a/${b.id}/desk`)).status).toBe(404);
    expect((await owner.post(`/panel/a/${b.id}/desk/pin`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
    expect((await owner.post(`${page}/policy`, { policy: p.policy.id })).status).toBe(403);
  });
});
