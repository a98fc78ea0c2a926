import { describe, expect, it } from 'vitest';
import { compatFixture as fixture, compatRig } from '../../test/helpers/compat-intake';
import { createPoliciesService } from '../escalation';
import { createSchedulesService } from '../schedules';

// docs/integrations.md "PagerDuty and Opsgenie compatible intake": both APIs go through the
// webhook's alert path, so what applies to an alert there applies here (maintenance windows,
// callbacks, the on-call schedules an escalation policy names).
const rig = compatRig();
const { send, alerts, callsOf, used } = rig;

describe('maintenance windows apply as on the webhook (docs/on-call.md "Maintenance windows")', () => {
  const window = (matches: string[]) =>
    rig.store.transaction((tx) => tx.maintenance.create({ accountId: rig.acc.id, startsAt: rig.clock() - 60_000, endsAt: rig.clock() + 3600_000, reason: 'planned', matches }, rig.clock()));

  it('source=pagerduty: the trigger is stored and answered 202, nobody is called, nothing is charged', async () => {
    const w = await window(['source=pagerduty']);
    const r = await send('POST', '/v2/enqueue?to=5321234567', { ...fixture('pagerduty-trigger.pagerduty-openapi-example.json'), routing_key: rig.acc.webhookKey });
    expect(r).toMatchObject({ status: 202, json: { status: 'success', message: 'Event processed', dedup_key: 'srv01/mysql' } });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ key: 'srv01/mysql', source: 'pagerduty' });
    expect(await callsOf(alert!.id)).toEqual([]);
    expect(await used()).toBe(0);
    expect(w.matches).toEqual(['source=pagerduty']);
  });

  it("label: matches Opsgenie details (where Alertmanager puts the group's labels); another label value is called", async () => {
    await window(['label:env=staging']);
    const headers = { authorization: `GenieKey ${rig.acc.webhookKey}` };
    expect((await send('POST', '/v2/alerts?to=5321234567', { message: 'db down', alias: 'a1', details: { env: 'staging' } }, headers)).status).toBe(202);
    expect((await send('POST', '/v2/alerts?to=5321234567', { message: 'db down', alias: 'a2', details: { env: 'prod' } }, headers)).status).toBe(202);
    const byKey = Object.fromEntries((await alerts()).map((a) => [a.key, a]));
    expect(byKey.a1!.labels).toEqual({ env: 'staging' });
    expect(await callsOf(byKey.a1!.id)).toEqual([]);
    expect((await callsOf(byKey.a2!.id)).map((c) => c.phoneNumber)).toEqual(['5321234567']);
  });
});

describe('callbacks as on the webhook (docs/on-call.md "Callbacks")', () => {
  it("the account's callback hears both APIs' acknowledgements and resolves: alert.acknowledged by pagerduty-api / opsgenie-api, alert.resolved", async () => {
    await rig.store.transaction((tx) => tx.outbox.setTarget(rig.acc.id, { url: 'http://127.0.0.1:1/cb', secret: 's' }));
    const genie = { authorization: `GenieKey ${rig.acc.webhookKey}` };
    const trigger = (key: string) => send('POST', '/v2/enqueue?to=5321234567', { routing_key: rig.acc.webhookKey, event_action: 'trigger', dedup_key: key, payload: { summary: key, source: 'web1', severity: 'critical' } });
    await trigger('pd-ack');
    await trigger('pd-resolve');
    expect((await send('POST', '/v2/enqueue', { routing_key: rig.acc.webhookKey, event_action: 'acknowledge', dedup_key: 'pd-ack' })).status).toBe(202);
    expect((await send('POST', '/v2/enqueue', { routing_key: rig.acc.webhookKey, event_action: 'resolve', dedup_key: 'pd-resolve' })).status).toBe(202);
    for (const alias of ['og-ack', 'og-close']) expect((await send('POST', '/v2/alerts?to=5321234567', { message: alias, alias }, genie)).status).toBe(202);
    expect((await send('POST', '/v2/alerts/og-ack/acknowledge?identifierType=alias', {}, genie)).status).toBe(202);
    expect((await send('POST', '/v2/alerts/og-close/close?identifierType=alias', {}, genie)).status).toBe(202);
    const events = (await rig.store.outbox.recent(rig.acc.id, 100))
      .reverse()
      .filter((e) => e.type.startsWith('alert.'))
      .map((e) => JSON.parse(e.body));
    expect(events.map((e) => [e.type, e.alert.key, e.acknowledged_by ?? null])).toEqual([
      ['alert.acknowledged', 'pd-ack', 'pagerduty-api'],
      ['alert.resolved', 'pd-resolve', null],
      ['alert.acknowledged', 'og-ack', 'opsgenie-api'],
      ['alert.resolved', 'og-close', null],
    ]);
  });
});

describe('a policy whose step names a schedule calls who is on call (docs/on-call.md "On-call schedules")', () => {
  it("?policy= on either API's URL: the rotation's on-call, then an override in force when the request comes", async () => {
    // manualClock: 2026-11-15 12:00Z, 15:00 in Istanbul: Ayşe's 12h shift (09:00–21:00 local).
    const schedules = createSchedulesService({ store: rig.store, clock: rig.clock });
    const created = await schedules.create(rig.acc.id, {
      name: 'noc',
      timeZone: 'Europe/Istanbul',
      layers: [{ participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '12h', start: '2026-11-15T09:00' }],
    });
    expect(created.ok).toBe(true);
    const policy = await createPoliciesService({ store: rig.store, clock: rig.clock }).create(rig.acc.id, { name: 'oncall', steps: [{ numbers: [], schedules: ['noc'], wait_s: 300 }], rounds: 1 });
    expect(policy.ok).toBe(true);

    const pd = await send('POST', '/v2/enqueue?policy=oncall', { routing_key: rig.acc.webhookKey, event_action: 'trigger', dedup_key: 'pd', payload: { summary: 'core down', source: 'sw1', severity: 'critical' } });
    expect(pd.status).toBe(202);
    await schedules.addOverride(rig.acc.id, 'noc', { from: '2026-11-15T11:00:00Z', to: '2026-11-15T13:00:00Z', number: '5324444444', name: 'Deniz' });
    const og = await send('POST', '/v2/alerts?policy=oncall', { message: 'core down', alias: 'og' }, { authorization: `GenieKey ${rig.acc.webhookKey}` });
    expect(og.status).toBe(202);

    const byKey = Object.fromEntries((await alerts()).map((a) => [a.key, a]));
    expect((await callsOf(byKey.pd!.id)).map((c) => c.phoneNumber)).toEqual(['5321111111']);
    expect((await callsOf(byKey.og!.id)).map((c) => c.phoneNumber)).toEqual(['5324444444']);
  });
});
