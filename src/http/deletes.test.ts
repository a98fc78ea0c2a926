import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createAlertActions } from '../alerts';
import { createPoliciesService } from '../escalation';
import { createHeartbeatService } from '../heartbeats';
import { createSchedulesService } from '../schedules';
import type { Store } from '../store';
import { createDeskService } from '../voice-desk';

// Contract "Nothing silently calls nobody": deleting what another object uses is refused with
// 409, `<Kind> in use`, `<kind>_in_use` and `used_by`; with the uses gone, it is deleted.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
  app = httpTestApp(store, clock);
});
afterEach(() => store.close());

const LAYERS = [{ participants: [{ name: 'Ayşe', number: '5321111111' }], shift: '7d', start: '2026-11-02T09:00' }];

async function account() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id));
  const schedules = createSchedulesService({ store, clock });
  const policies = createPoliciesService({ store, clock });
  const s = await schedules.create(acc.id, { name: 'backup', timeZone: 'Europe/Istanbul', layers: LAYERS });
  const p = await policies.create(acc.id, { name: 'escalate', steps: [{ numbers: [], schedules: ['backup'], wait_s: 60 }] });
  if (!s.ok || !p.ok) throw new Error('setup');
  const auth = { 'x-api-key': cred.apiKey, 'x-api-secret': cred.apiSecret };
  return { accountId: acc.id, cred, auth, schedule: s.schedule, policy: p.policy, policies };
}

const del = async (path: string, headers: Record<string, string>) => {
  const r = await app.handle(new Request(`http://localhost${path}`, { method: 'DELETE', headers }));
  return { status: r.status, json: await r.json() };
};

describe('DELETE /api/schedules/:name', () => {
  it('refuses a schedule a policy names (409, used_by), then deletes it once the policy is gone', async () => {
    const a = await account();
    expect(await del('/api/schedules/backup', a.auth)).toEqual({
      status: 409,
      json: { status: 'error', message: 'Schedule in use', code: 'schedule_in_use', used_by: [{ kind: 'policy', id: a.policy.id, name: 'escalate' }] },
    });
    expect(await store.schedules.find(a.accountId, 'backup')).not.toBeNull();
    expect((await a.policies.remove(a.accountId, 'escalate')).ok).toBe(true);
    expect(await del('/api/schedules/backup', a.auth)).toEqual({
      status: 200,
      json: { status: 'success', message: 'Schedule deleted', id: a.schedule.id, name: 'backup' },
    });
    expect(await store.schedules.find(a.accountId, 'backup')).toBeNull();
  });

  it('is 404 for another account\'s schedule, 401 without credentials, 403 with the webhook key only', async () => {
    const a = await account();
    const other = await store.transaction((tx) => tx.accounts.create({ name: 'o', plan: 'starter' }));
    const oc = await store.transaction((tx) => tx.credentials.create(other.id));
    expect(await del('/api/schedules/backup', { 'x-api-key': oc.apiKey, 'x-api-secret': oc.apiSecret })).toEqual({
      status: 404,
      json: { status: 'error', message: 'Schedule not found', code: 'schedule_not_found' },
    });
    expect((await del('/api/schedules/backup', {})).status).toBe(401);
    expect((await del('/api/schedules/backup', { 'x-webhook-key': a.cred.webhookKey })).status).not.toBe(200);
    expect(await store.schedules.find(a.accountId, 'backup')).not.toBeNull();
  });
});

describe('DELETE /api/policies/:name', () => {
  it('refuses a policy a heartbeat, an active key\'s default and the voice desk use, naming each', async () => {
    const a = await account();
    const hb = await createHeartbeatService({ store, clock, timeZone: 'Europe/Istanbul' }).create(a.accountId, { name: 'nightly', interval_s: 3600, policy: 'escalate' });
    if (!hb.ok) throw new Error('heartbeat');
    expect((await a.policies.setDefault(a.accountId, a.cred.apiKey, 'escalate')).ok).toBe(true);
    expect((await createDeskService({ store, clock, alerts: createAlertActions({ store, clock, timeZone: 'Europe/Istanbul' }) }).setPolicy(a.accountId, 'escalate')).ok).toBe(true);
    const r = await del('/api/policies/escalate', a.auth);
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ status: 'error', message: 'Policy in use', code: 'policy_in_use' });
    expect(r.json.used_by).toEqual([
      { kind: 'heartbeat', id: hb.heartbeat.id, name: 'nightly' },
      { kind: 'key', id: a.cred.id, name: a.cred.apiKey },
      { kind: 'voice_desk', id: a.accountId, name: 'voice desk' },
    ]);
    expect(await store.policies.find(a.accountId, 'escalate')).not.toBeNull();
  });

  it('deletes a policy nothing uses (a revoked key\'s default does not count); 404 for a missing one', async () => {
    const a = await account();
    expect((await a.policies.setDefault(a.accountId, a.cred.apiKey, 'escalate')).ok).toBe(true);
    expect((await del('/api/policies/escalate', a.auth)).status).toBe(409);
    const spare = await store.transaction((tx) => tx.credentials.create(a.accountId));
    await store.transaction((tx) => tx.credentials.revoke(a.cred.apiKey));
    const auth = { 'x-api-key': spare.apiKey, 'x-api-secret': spare.apiSecret };
    expect(await del('/api/policies/escalate', auth)).toEqual({ status: 200, json: { status: 'success', message: 'Policy deleted', id: a.policy.id, name: 'escalate' } });
    expect(await del('/api/policies/escalate', auth)).toEqual({ status: 404, json: { status: 'error', message: 'Escalation policy not found', code: 'policy_not_found' } });
  });
});
