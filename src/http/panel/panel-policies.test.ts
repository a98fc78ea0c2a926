import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';
import { createHeartbeatService } from '../../heartbeats';


const setup = async () => acmeOwnerOn(await panelApp(), 'policies');

describe('panel: escalation policies', () => {
  test('create with steps as lines, edit (reorder by moving lines), delete; errors keep the draft', async () => {
    const { store, a, owner, page } = await setup();
    let csrf = await owner.csrf(page);
    const created = await owner.post(page, { _csrf: csrf, name: 'oncall', steps: '0532 111 11 11 : 120\n5322222222, 5323333333', rounds: '3' });
    expect(created.status).toBe(303);
    const [policy] = await store.policies.list(a.id);
    expect(policy).toMatchObject({ name: 'oncall', rounds: 3, steps: [{ numbers: ['5321111111'], wait_s: 120 }, { numbers: ['5322222222', '5323333333'], wait_s: 300 }] });

    const html = await (await owner.get(page)).text();
    expect(html).toContain('5321111111 : 120\n5322222222, 5323333333 : 300');

    csrf = await owner.csrf(page);
    expect((await owner.post(`${page}/${policy!.id}`, { _csrf: csrf, name: 'oncall', steps: '5322222222 : 60\n5321111111 : 60', rounds: '1' })).status).toBe(303);
    expect(await store.policies.get(policy!.id)).toMatchObject({ rounds: 1, steps: [{ numbers: ['5322222222'], wait_s: 60 }, { numbers: ['5321111111'], wait_s: 60 }] });

    const bad = await owner.post(page, { _csrf: csrf, name: 'night', steps: '12345', rounds: '2' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Geçersiz politika: steps.0.numbers: invalid phone number: 12345');
    expect(badHtml).toContain('>12345</textarea>');

    // The delete button asks first (docs/on-call.md "Nothing silently calls nobody"): what goes, and a confirmed POST deletes.
    const asked = await owner.post(`${page}/${policy!.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const askedHtml = await asked.text();
    expect(askedHtml).toContain('5322222222');
    expect(askedHtml).toContain('name="confirm" value="1"');
    expect(askedHtml).not.toContain('data-used-by');
    expect(await store.policies.list(a.id)).toHaveLength(1);
    expect((await owner.post(`${page}/${policy!.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.policies.list(a.id)).toEqual([]);
  });

  test('a policy in use: the confirmation page names its users and offers no delete; a forced POST is 409', async () => {
    const { store, a, owner, page, deps } = await setup();
    const mine = await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'mine', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    const hb = await createHeartbeatService({ store, clock: deps.clock, timeZone: 'Europe/Istanbul' }).create(a.id, { name: 'nightly-backup', interval_s: 3600, policy: 'mine' });
    expect(hb.ok).toBe(true);
    const csrf = await owner.csrf(page);
    const asked = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-used-by');
    expect(html).toContain('nightly-backup');
    expect(html).not.toContain('name="confirm" value="1"');
    const forced = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' });
    expect(forced.status).toBe(409);
    expect(await forced.text()).toContain('nightly-backup');
    expect(await store.policies.get(mine.id)).not.toBeNull();
  });

  test("a policy that is an API key's default: the confirmation page names the key and offers no delete; a forced POST is 409; once cleared it deletes", async () => {
    const { store, a, owner, page } = await setup();
    const mine = await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'mine', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    const key = await store.transaction((tx) => tx.credentials.create(a.id));
    expect(await store.transaction((tx) => tx.policies.setDefault(key.id, mine.id))).toBe(true);
    const csrf = await owner.csrf(page);
    const asked = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-used-by');
    expect(html).toContain(`data-kind="key" data-id="${key.id}"`);
    expect(html).toContain(key.apiKey);
    expect(html).not.toContain('name="confirm" value="1"');
    const forced = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' });
    expect(forced.status).toBe(409);
    expect(await forced.text()).toContain(`data-kind="key" data-id="${key.id}"`);
    expect(await store.policies.get(mine.id)).not.toBeNull();
    expect((await store.policies.defaultOf(key.id))?.id).toBe(mine.id);

    expect((await owner.post(`${page}/default/${key.apiKey}`, { _csrf: csrf, policy: '' })).status).toBe(303);
    expect((await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await store.policies.get(mine.id)).toBeNull();
  });

  test("the voice desk's policy: the confirmation page names the desk and offers no delete; a forced POST is 409", async () => {
    const { store, a, owner, page } = await setup();
    const mine = await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'mine', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    await store.transaction((tx) => tx.voiceDesk.setPolicy(a.id, mine.id, 0));
    const csrf = await owner.csrf(page);
    const asked = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-used-by');
    expect(html).toContain(`data-kind="voice_desk" data-id="${a.id}"`);
    expect(html).not.toContain('name="confirm" value="1"');
    const forced = await owner.post(`${page}/${mine.id}/delete`, { _csrf: csrf, confirm: '1' });
    expect(forced.status).toBe(409);
    expect(await forced.text()).toContain('data-kind="voice_desk"');
    expect(await store.policies.get(mine.id)).not.toBeNull();
    expect((await store.voiceDesk.get(a.id))?.policyId).toBe(mine.id);
  });

  test('each policy says who follows it; an edit in place keeps them following it; a bad edit keeps the draft open and changes nothing', async () => {
    const { store, a, owner, page, deps } = await setup();
    const mine = await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'mine', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'spare', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    const hb = await createHeartbeatService({ store, clock: deps.clock, timeZone: 'Europe/Istanbul' }).create(a.id, { name: 'nightly-backup', interval_s: 3600, policy: 'mine' });
    expect(hb.ok).toBe(true);
    const html = await (await owner.get(page)).text();
    const usedBy = [...html.matchAll(/<p[^>]*data-testid="used-by"[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
    expect(usedBy).toEqual(['Kullananlar: heartbeat nightly-backup', 'Henüz onu kullanan yok (heartbeat, API anahtarı varsayılanı ya da sesli masa).']);
    const csrf = await owner.csrf(page);
    expect((await owner.post(`${page}/${mine.id}`, { _csrf: csrf, name: 'mine', steps: '5322222222 : 30', rounds: '2' })).status).toBe(303);
    expect(await store.policies.get(mine.id)).toMatchObject({ rounds: 2, steps: [{ numbers: ['5322222222'], wait_s: 30 }] });
    expect((await store.heartbeats.list(a.id))[0]!.policyId).toBe(mine.id);
    const bad = await owner.post(`${page}/${mine.id}`, { _csrf: csrf, name: 'spare', steps: '5322222222 : 30', rounds: '2' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toMatch(/<details open>\s*<summary>/);
    expect(badHtml).toContain('value="spare"');
    expect((await store.policies.get(mine.id))!.name).toBe('mine');
  });

  test("sets a key's default policy; another account's policy or key is not found", async () => {
    const { store, a, b, owner, page } = await setup();
    const key = await store.transaction((tx) => tx.credentials.create(a.id));
    const theirs = await store.transaction((tx) => tx.policies.create({ accountId: b.id, name: 'theirs', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    const mine = await store.transaction((tx) => tx.policies.create({ accountId: a.id, name: 'mine', steps: [{ numbers: ['5321111111'], wait_s: 60 }], rounds: 1 }, 0));
    const csrf = await owner.csrf(page);
    expect((await owner.post(`${page}/default/${key.apiKey}`, { _csrf: csrf, policy: mine.id })).status).toBe(303);
    expect((await store.policies.defaultOf(key.id))?.id).toBe(mine.id);
    expect((await owner.post(`${page}/default/${key.apiKey}`, { _csrf: csrf, policy: theirs.id })).status).toBe(404);
    expect((await owner.post(`${page}/${theirs.id}/delete`, { _csrf: csrf })).status).toBe(404);
    expect(await store.policies.get(theirs.id)).not.toBeNull();
    expect((await owner.get(`/panel/a/${b.id}/policies`)).status).toBe(404);
    expect((await owner.post(`${page}/default/${key.apiKey}`, { _csrf: csrf, policy: '' })).status).toBe(303);
    expect(await store.policies.defaultOf(key.id)).toBeNull();
  });
});
