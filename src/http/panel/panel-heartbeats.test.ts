import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';

// docs/on-call.md "Heartbeats": the panel's heartbeats page, as the CLI's heartbeat commands.
const PW = 'a-long-password-1';

async function setup(panel: Record<string, unknown> = {}) {
  const ctx = await panelApp({ language: 'en', ...panel });
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  await ctx.deps.services.policies.create(a.id, { name: 'oncall', steps: [{ numbers: ['5321111111'] }] });
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', PW);
  const page = `/panel/a/${a.id}/heartbeats`;
  return { ...ctx, a, b, owner, page, csrf: await owner.csrf(page), heartbeats: ctx.deps.services.heartbeats };
}

const pingUrlOf = (html: string) => /<code id="ping-url"[^>]*>([^<]+)<\/code>/.exec(html)?.[1];

describe('panel: heartbeats', () => {
  test('create shows the full ping URL once, with the curl and Alertmanager lines; the URL pings it up', async () => {
    const { owner, page, csrf, app, a, heartbeats } = await setup();
    const r = await owner.post(page, { _csrf: csrf, name: 'nightly backup', interval_s: '86400', grace_s: '1800', policy: 'oncall', to: '', message: '' });
    expect(r.status).toBe(200);
    const html = await r.text();
    const url = pingUrlOf(html)!;
    expect(url).toMatch(/^http:\/\/localhost\/heartbeat\/[0-9A-Za-z]{32}$/);
    expect(html).toContain(`curl -fsS -m 10 --retry 3 ${url}`);
    expect(html).toContain(`      - url: &#x27;${url}&#x27;`);
    // The default text's <name> is text, not markup.
    expect(html).toContain('Empty: “Heartbeat &lt;name&gt; missed.');
    expect(html).toMatch(/data-heartbeat="nightly backup" data-state="new"/);
    const [h] = await heartbeats.list(a.id);
    expect(h).toMatchObject({ name: 'nightly backup', intervalS: 86400, graceS: 1800, state: 'new' });

    const ping = await app.handle(new Request(url));
    expect(ping.status).toBe(200);
    const after = await (await owner.get(page)).text();
    expect(after).toMatch(/data-heartbeat="nightly backup" data-state="up"/);
    expect(after).not.toContain(url); // shown once
  });

  test('the ping URL starts with panel.public_url when it is set', async () => {
    const { owner, page, csrf } = await setup({ public_url: 'https://alerts.example.com/' });
    const html = await (await owner.post(page, { _csrf: csrf, name: 'watchdog', interval_s: '300', grace_s: '', policy: '', to: '0532 111 11 11', message: 'Alertmanager is silent' })).text();
    expect(pingUrlOf(html)).toMatch(/^https:\/\/alerts\.example\.com\/heartbeat\/[0-9A-Za-z]{32}$/);
  });

  test('bad input: a clear error, the form as typed, nothing created', async () => {
    const { owner, page, csrf, a, heartbeats } = await setup();
    const nobody = await owner.post(page, { _csrf: csrf, name: 'x', interval_s: '300', grace_s: '60', policy: '', to: '', message: 'said' });
    expect(nobody.status).toBe(400);
    const html = await nobody.text();
    expect(html).toContain('Invalid heartbeat: to: give --policy or --to: someone must be called');
    expect(html).toContain('value="said"');
    const badNumber = await owner.post(page, { _csrf: csrf, name: 'x', interval_s: '300', grace_s: '60', policy: '', to: '123', message: '' });
    expect(await badNumber.text()).toContain('to: invalid phone number: 123');
    const badInterval = await owner.post(page, { _csrf: csrf, name: 'x', interval_s: 'often', grace_s: '', policy: 'oncall', to: '', message: '' });
    expect(badInterval.status).toBe(400);
    expect(await badInterval.text()).toContain('Invalid heartbeat: interval_s:');
    const unknown = await owner.post(page, { _csrf: csrf, name: 'x', interval_s: '300', grace_s: '', policy: 'gone', to: '', message: '' });
    expect(await unknown.text()).toContain('No such escalation policy.');
    expect(await heartbeats.list(a.id)).toEqual([]);
    expect((await owner.post(page, { name: 'x', interval_s: '300', policy: 'oncall' })).status).toBe(403);
  });

  test('pause, resume, delete (asked first); another account\'s heartbeat is not found', async () => {
    const { owner, page, csrf, a, b, heartbeats } = await setup();
    const made = await heartbeats.create(a.id, { name: 'cron', interval_s: 60, to: ['5321111111'] });
    const theirs = await heartbeats.create(b.id, { name: 'theirs', interval_s: 60, to: ['5321111111'] });
    if (!made.ok || !theirs.ok) throw new Error('heartbeats');
    const id = made.heartbeat.id;
    expect((await owner.post(`${page}/${id}/pause`, { _csrf: csrf })).status).toBe(303);
    expect(await (await owner.get(`${page}?paused`)).text()).toMatch(/data-heartbeat="cron" data-state="paused"[\s\S]*Resume/);
    expect((await owner.post(`${page}/${id}/resume`, { _csrf: csrf })).status).toBe(303);
    expect((await heartbeats.list(a.id))[0]!.paused).toBe(false);
    const asked = await owner.post(`${page}/${id}/delete`, { _csrf: csrf });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('Delete the heartbeat cron?');
    expect(await heartbeats.list(a.id)).toHaveLength(1);
    expect((await owner.post(`${page}/${id}/delete`, { _csrf: csrf, confirm: '1' })).status).toBe(303);
    expect(await heartbeats.list(a.id)).toEqual([]);
    for (const act of ['pause', 'resume', 'delete']) expect((await owner.post(`${page}/${theirs.heartbeat.id}/${act}`, { _csrf: csrf, confirm: '1' })).status).toBe(404);
    expect(await heartbeats.list(b.id)).toHaveLength(1);
  });
});
