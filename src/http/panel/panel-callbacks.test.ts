import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { emitAlertEvent } from '../../callbacks';

const PW = 'a-long-password-1';

async function setup() {
  const ctx = await panelApp();
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', PW);
  const ownerA = browser(ctx.app);
  await ownerA.login('a@acme.test', PW);
  return { ...ctx, a, b, ownerA };
}

describe('panel callbacks page', () => {
  test('setting the URL shows the secret once (and it is the one stored); a bad URL is refused; clearing stops it', async () => {
    const { a, store, ownerA } = await setup();
    const path = `/panel/a/${a.id}/callbacks`;
    const csrf = await ownerA.csrf(path);
    const bad = await ownerA.post(path, { _csrf: csrf, url: 'ftp://user:pw@example.test/' });
    expect(bad.status).toBe(400);
    expect(await store.outbox.urlOf(a.id)).toBeNull();

    const set = await (await ownerA.post(path, { _csrf: csrf, url: 'https://hooks.example.test/voice?token=1' })).text();
    const secret = /id="callback-secret"[^>]*>([^<]+)</.exec(set)![1]!;
    expect(await store.outbox.target(a.id)).toEqual({ url: 'https://hooks.example.test/voice?token=1', secret });
    const again = await (await ownerA.get(path)).text();
    expect(again).toContain('https://hooks.example.test/voice?token=1');
    expect(again).not.toContain(secret);

    const cleared = await ownerA.post(`${path}/clear`, { _csrf: csrf });
    expect(cleared.headers.get('location')).toBe(`${path}?cleared`);
    expect(await store.outbox.target(a.id)).toBeNull();
  });

  test('lists the recent deliveries with their state and last answer; another account is a 404', async () => {
    const { a, b, store, ownerA } = await setup();
    await store.transaction((tx) => tx.outbox.setTarget(a.id, { url: 'http://127.0.0.1:9/cb', secret: 's' }));
    const alertId = await store.transaction((tx) => tx.alerts.create({ accountId: a.id, credentialId: null, key: 'k', source: 'api', message: 'm' }, Date.now()));
    const eventId = await store.transaction(async (tx) => emitAlertEvent(tx, 'alert.resolved', (await tx.alerts.get(alertId))!, Date.now()));
    await store.transaction((tx) => tx.outbox.recordAttempt(eventId!, { at: Date.now(), status: 500, error: 'HTTP 500', outcome: 'retry', nextAttemptAt: Date.now() + 10_000 }));
    const html = await (await ownerA.get(`/panel/a/${a.id}/callbacks`)).text();
    const row = new RegExp(`data-event-id="${eventId}"[\\s\\S]*?</tr>`).exec(html)![0];
    expect(row).toContain('alert.resolved');
    expect(row).toContain('HTTP 500');
    expect((await ownerA.get(`/panel/a/${b.id}/callbacks`)).status).toBe(404);
  });
});
