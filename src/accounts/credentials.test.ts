import { describe, expect, test } from 'vitest';
import { tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { createServices } from '../services';

async function setup() {
  const store = await tempStore(Date.now);
  const mine = await store.transaction((tx) => tx.accounts.create({ name: 'Mine', plan: 'starter' }));
  const theirs = await store.transaction((tx) => tx.accounts.create({ name: 'Theirs', plan: 'starter' }));
  return { store, mine, theirs, ...createServices({ store, clock: Date.now, config: configSchema.parse({}) }) };
}

describe('credentials service', () => {
  test('created for an existing account only, with the signature flag as asked; the secrets are returned once', async () => {
    const { store, mine, credentials } = await setup();
    expect(await credentials.create('acc_missing')).toEqual({ ok: false, code: 'NO_ACCOUNT' });
    const r = await credentials.create(mine.id, { requireSignature: true });
    expect(r).toMatchObject({ ok: true, issued: { accountId: mine.id, apiKey: expect.stringMatching(/^vak_/), apiSecret: expect.stringMatching(/^vas_/) } });
    expect(r.ok && (await store.credentials.findByApiKey(r.issued.apiKey))?.requireSignature).toBe(true);
  });

  test("scoped to an account, another account's key is not found and stays untouched; unscoped (CLI), any key", async () => {
    const { store, mine, theirs, credentials } = await setup();
    const other = await store.transaction((tx) => tx.credentials.create(theirs.id));
    const ref = { apiKey: other.apiKey, accountId: mine.id };
    expect(await credentials.revoke(ref)).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
    expect(await credentials.setRequireSignature(ref, true)).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
    expect(await credentials.rotateWebhookKey(ref)).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
    expect(await store.credentials.findByWebhookKey(other.webhookKey)).toMatchObject({ requireSignature: false });
    expect(await credentials.revoke({ apiKey: other.apiKey })).toEqual({ ok: true });
  });

  test('a revoked or unknown set cannot be changed again', async () => {
    const { store, mine, credentials } = await setup();
    const k = await store.transaction((tx) => tx.credentials.create(mine.id));
    const ref = { apiKey: k.apiKey, accountId: mine.id };
    expect(await credentials.revoke(ref)).toEqual({ ok: true });
    expect(await store.credentials.findByApiKey(k.apiKey)).toBeNull();
    expect(await credentials.revoke(ref)).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
    expect(await credentials.setRequireSignature(ref, true)).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
    expect(await credentials.rotateWebhookKey({ apiKey: 'vak_missing' })).toEqual({ ok: false, code: 'NO_CREDENTIAL' });
  });

  test('rotation replaces the webhook key at once; the signature flag can be set and cleared', async () => {
    const { store, mine, credentials } = await setup();
    const k = await store.transaction((tx) => tx.credentials.create(mine.id));
    const ref = { apiKey: k.apiKey, accountId: mine.id };
    const r = await credentials.rotateWebhookKey(ref);
    expect(r).toEqual({ ok: true, webhookKey: expect.stringMatching(/^vwk_/) });
    expect(await store.credentials.findByWebhookKey(k.webhookKey)).toBeNull();
    expect(r.ok && (await store.credentials.findByWebhookKey(r.webhookKey))?.apiKey).toBe(k.apiKey);
    expect(await credentials.setRequireSignature(ref, true)).toEqual({ ok: true });
    expect((await store.credentials.findByApiKey(k.apiKey))?.requireSignature).toBe(true);
    expect(await credentials.setRequireSignature(ref, false)).toEqual({ ok: true });
    expect((await store.credentials.findByApiKey(k.apiKey))?.requireSignature).toBe(false);
  });
});
