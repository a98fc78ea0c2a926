import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createFallbackService } from '../accounts';
import { createPoliciesService } from '../escalation';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';

// Contract "People": GET/POST /api/people, GET/PUT/DELETE /api/people/{name}, API key and
// secret; the error catalogue's answers; 409 person_in_use with used_by.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
  app = httpTestApp(store, clock);
});
afterEach(() => store.close());

async function account() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  return { accountId: acc.id, cred, auth: { 'x-api-key': cred.apiKey, 'x-api-secret': cred.apiSecret } };
}

const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
  const r = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: r.status, json: await r.json() };
};

describe('/api/people', () => {
  it('creates, lists, shows, updates and deletes a person', async () => {
    const a = await account();
    const created = await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['0532 111 11 11', '5322222222'], sms: ['5321111111'], emails: ['ayse@example.com'], language: 'en', time_zone: 'Europe/Istanbul' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      status: 'success',
      message: 'Person created',
      person: {
        account_id: a.accountId,
        name: 'Ayşe',
        phones: [{ number: '5321111111', verified_at: null }, { number: '5322222222', verified_at: null }],
        sms: ['5321111111'],
        emails: ['ayse@example.com'],
        language: 'en',
        time_zone: 'Europe/Istanbul',
        created_at: '2026-11-15T12:00:00.000Z',
      },
    });
    const id = created.json.person.id as string;
    expect(id).toMatch(/^per_/);
    expect((await send('GET', '/api/people', a.auth)).json).toEqual({ status: 'success', message: 'People', people: [created.json.person] });
    expect((await send('GET', `/api/people/${encodeURIComponent('ayşe')}`, a.auth)).json).toEqual({ status: 'success', message: 'Person found', person: created.json.person });

    const updated = await send('PUT', `/api/people/${id}`, a.auth, { phones: [{ number: '5323333333' }], language: 'tr' });
    expect(updated).toMatchObject({ status: 200, json: { message: 'Person updated', person: { name: 'Ayşe', phones: [{ number: '5323333333', verified_at: null }], language: 'tr', sms: ['5321111111'] } } });

    expect(await send('DELETE', `/api/people/${encodeURIComponent('Ayşe')}`, a.auth)).toEqual({ status: 200, json: { status: 'success', message: 'Person deleted', id, name: 'Ayşe' } });
    expect(await send('GET', `/api/people/${id}`, a.auth)).toEqual({ status: 404, json: { status: 'error', message: 'Person not found', code: 'person_not_found' } });
  });

  it('refuses a duplicate name, a number numbers.accept refuses, bad fields; another account\'s person is 404', async () => {
    const a = await account();
    expect((await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['5321111111'] })).status).toBe(201);
    expect(await send('POST', '/api/people', a.auth, { name: 'AYŞE' })).toEqual({ status: 409, json: { status: 'error', message: 'Person name taken', code: 'person_name_taken' } });
    expect(await send('POST', '/api/people', a.auth, { name: 'Cem', phones: ['123'] })).toEqual({ status: 400, json: { status: 'error', message: 'Invalid phone number: 123', code: 'invalid_phone_number' } });
    expect(await send('POST', '/api/people', a.auth, { phones: ['5321111111'] })).toEqual({ status: 400, json: { status: 'error', message: 'Invalid person: name: required', code: 'invalid_person' } });
    expect(await send('POST', '/api/people', a.auth, { name: 'Cem', language: 'fr' })).toEqual({ status: 400, json: { status: 'error', message: 'Invalid person: language: tr or en, got fr', code: 'invalid_person' } });

    const b = await account();
    const notFound = { status: 404, json: { status: 'error', message: 'Person not found', code: 'person_not_found' } };
    expect(await send('GET', '/api/people/Ay%C5%9Fe', b.auth)).toEqual(notFound);
    expect(await send('PUT', '/api/people/Ay%C5%9Fe', b.auth, { phones: ['5329999999'] })).toEqual(notFound);
    expect(await send('DELETE', '/api/people/Ay%C5%9Fe', b.auth)).toEqual(notFound);
    expect((await send('GET', '/api/people', b.auth)).json.people).toEqual([]);
  });

  it('needs the API key and secret: none is 401, the webhook key alone is refused', async () => {
    const a = await account();
    expect((await send('GET', '/api/people', {})).status).toBe(401);
    expect((await send('POST', '/api/people', { 'x-webhook-key': a.cred.webhookKey }, { name: 'Ayşe' })).status).not.toBe(201);
    expect(await store.people.list(a.accountId)).toEqual([]);
  });

  it('refuses to delete a person a schedule names: 409 Person in use with used_by', async () => {
    const a = await account();
    await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['5321111111'] });
    const s = await createSchedulesService({ store, clock }).create(a.accountId, {
      name: 'noc',
      timeZone: 'Europe/Istanbul',
      layers: [{ participants: [{ person: 'Ayşe' }], shift: '7d', start: '2026-11-02T09:00' }],
    });
    if (!s.ok) throw new Error(s.code);
    expect(await send('DELETE', '/api/people/Ay%C5%9Fe', a.auth)).toEqual({
      status: 409,
      json: { status: 'error', message: 'Person in use', code: 'person_in_use', used_by: [{ kind: 'schedule', id: s.schedule.id, name: 'noc' }] },
    });
    // The on-call API names the person.
    const oncall = await send('GET', '/api/schedules/noc/oncall', a.auth);
    expect(oncall.json).toMatchObject({ status: 'success', name: 'Ayşe', number: '5321111111', person: expect.stringMatching(/^per_/) });
  });

  it('refuses to delete a person a policy step names: 409 Person in use with used_by naming the policy; deleted once the policy is gone', async () => {
    const a = await account();
    const created = await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['5321111111'] });
    const policies = createPoliciesService({ store, clock });
    const p = await policies.create(a.accountId, { name: 'night', steps: [{ numbers: [], people: ['Ayşe'], wait_s: 60 }] });
    if (!p.ok) throw new Error(p.code);
    expect(await send('DELETE', '/api/people/Ay%C5%9Fe', a.auth)).toEqual({
      status: 409,
      json: { status: 'error', message: 'Person in use', code: 'person_in_use', used_by: [{ kind: 'policy', id: p.policy.id, name: 'night' }] },
    });
    expect((await send('GET', '/api/people/Ay%C5%9Fe', a.auth)).status).toBe(200);
    await policies.remove(a.accountId, 'night');
    expect(await send('DELETE', '/api/people/Ay%C5%9Fe', a.auth)).toEqual({ status: 200, json: { status: 'success', message: 'Person deleted', id: created.json.person.id, name: 'Ayşe' } });
  });

  it("refuses to delete the account's fallback: 409 Person in use with used_by naming the fallback; deleted once the fallback is a number", async () => {
    const a = await account();
    const created = await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['5321111111'] });
    const fallbacks = createFallbackService({ store, clock });
    expect(await fallbacks.set(a.accountId, { person: 'Ayşe' })).toMatchObject({ ok: true });
    expect(await send('DELETE', `/api/people/${created.json.person.id}`, a.auth)).toEqual({
      status: 409,
      json: { status: 'error', message: 'Person in use', code: 'person_in_use', used_by: [{ kind: 'fallback', id: a.accountId, name: 'account fallback' }] },
    });
    expect(await store.fallbacks.get(a.accountId)).toMatchObject({ personId: created.json.person.id });
    await fallbacks.set(a.accountId, { phone: '5329999999' });
    expect((await send('DELETE', `/api/people/${created.json.person.id}`, a.auth)).status).toBe(200);
  });

  it('POST /api/people/{name}/verify answers 202 at once with the calls queued, uncharged, before alerts; refusals as the catalogue says', async () => {
    const a = await account();
    const other = await account();
    await send('POST', '/api/people', a.auth, { name: 'Ayşe', phones: ['5321111111', '5322222222'], language: 'en' });
    // No body: every phone.
    const all = await send('POST', `/api/people/${encodeURIComponent('ayşe')}/verify`, a.auth);
    expect(all).toMatchObject({ status: 202, json: { status: 'success', message: 'Verification calls queued', person: expect.stringMatching(/^per_/) } });
    expect(all.json.calls.map((c: { number: string }) => c.number)).toEqual(['5321111111', '5322222222']);
    const calls = await store.calls.getMany(all.json.calls.map((c: { id: string }) => c.id));
    expect(calls.map((c) => [c.state, c.verify, c.charged, c.alertId])).toEqual([
      ['queued', true, false, null],
      ['queued', true, false, null],
    ]);
    // One phone, in any accepted form.
    const one = await send('POST', `/api/people/${encodeURIComponent('Ayşe')}/verify`, a.auth, { phone: '0532 222 22 22' });
    expect(one).toMatchObject({ status: 202, json: { calls: [{ number: '5322222222' }] } });
    expect(await send('POST', `/api/people/${encodeURIComponent('Ayşe')}/verify`, a.auth, { phone: '5329999999' })).toMatchObject({
      status: 400,
      json: { code: 'invalid_person' },
    });
    // Another account's person is not found, like a missing one; no key is 401.
    expect(await send('POST', `/api/people/${encodeURIComponent('Ayşe')}/verify`, other.auth)).toMatchObject({ status: 404, json: { code: 'person_not_found' } });
    expect((await send('POST', `/api/people/${encodeURIComponent('Ayşe')}/verify`, {})).status).toBe(401);
  });
});
