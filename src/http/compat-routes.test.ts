import { describe, expect, it } from 'vitest';
import { compatFixture as fixture, compatRig, type CompatAnswer as Answer } from '../../test/helpers/compat-intake';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import { createHttpApp } from './app';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

// docs/integrations.md "PagerDuty and Opsgenie compatible intake": the documented bodies of both
// services and those their usual clients send (test/fixtures/compat), answered field by field as
// PagerDuty and Opsgenie answer, through the webhook's alert path (compat-alert-path.test.ts).
const rig = compatRig();
const { account, send, alerts, callsOf, used } = rig;

describe('POST /v2/enqueue (PagerDuty Events API v2)', () => {
  const enqueue = (event: Record<string, unknown>, query = '?to=5321234567', headers: Record<string, string> = {}) =>
    send('POST', `/v2/enqueue${query}`, event, headers);
  const withKey = (event: Record<string, unknown>) => ({ ...event, routing_key: rig.acc.webhookKey });
  /** PagerDuty's answer, exactly: the status and these fields, nothing more. */
  const pagerDuty = (r: Answer, status: number, json: Record<string, unknown>) => {
    expect(r.status).toBe(status);
    expect(r.json).toEqual(json);
  };
  const processed = (dedupKey: string) => ({ status: 'success', message: 'Event processed', dedup_key: dedupKey });

  it("the documented trigger: 202 exactly as PagerDuty's, one alert keyed by dedup_key, source pagerduty, summary/source/severity spoken", async () => {
    const r = await enqueue(withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json')));
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'srv01/mysql' });
    const [alert] = await alerts();
    expect(alert).toMatchObject({ key: 'srv01/mysql', source: 'pagerduty', state: 'open' });
    expect(alert!.message).toBe('DISK at 99% on machine prod-datapipe03.example.com. prod-datapipe03.example.com. critical.');
    const calls = await callsOf(alert!.id);
    expect(calls.map((c) => [c.phoneNumber, c.state, c.source])).toEqual([['5321234567', 'queued', 'webhook']]);
    expect(await used()).toBe(1);
  });

  it('a repeat of the trigger is deduplicated: 202, no new call, no charge', async () => {
    const event = withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json'));
    await enqueue(event);
    const again = await enqueue(event);
    pagerDuty(again, 202, processed('srv01/mysql'));
    const list = await alerts();
    expect(list).toHaveLength(1);
    expect(await callsOf(list[0]!.id)).toHaveLength(1);
    expect(await used()).toBe(1);
  });

  it('a trigger without dedup_key gets a generated key, returned; each such trigger is a new alert', async () => {
    const event = withKey(fixture('pagerduty-trigger-no-dedup-key.pagerduty-docs.json'));
    const first = await enqueue(event);
    const second = await enqueue(event);
    expect(first.status).toBe(202);
    expect(first.json.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.json.dedup_key).toMatch(/^[0-9a-f]{32}$/);
    expect(second.json.dedup_key).not.toBe(first.json.dedup_key);
    expect((await alerts()).map((a) => a.key).sort()).toEqual([first.json.dedup_key, second.json.dedup_key].sort());
  });

  it("acknowledge (the documented body): the alert is acknowledged by pagerduty-api, its waiting call cancelled, the credit back", async () => {
    const ack = fixture('pagerduty-acknowledge.pagerduty-docs.json');
    await enqueue(withKey({ ...fixture('pagerduty-trigger.pagerduty-openapi-example.json'), dedup_key: ack.dedup_key }));
    const r = await enqueue(withKey(ack), '');
    pagerDuty(r, 202, processed('dedupkeyhere'));
    const [alert] = await alerts();
    expect(alert).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'pagerduty-api' });
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
    expect(await used()).toBe(0);
  });

  it('resolve (the documented body): the alert is resolved and its call cancelled; a late resolve is still 202', async () => {
    const resolve = fixture('pagerduty-resolve.pagerduty-docs.json');
    await enqueue(withKey({ ...fixture('pagerduty-trigger.pagerduty-openapi-example.json'), dedup_key: resolve.dedup_key }));
    pagerDuty(await enqueue(withKey(resolve), ''), 202, processed('dedupkeyhere'));
    const [alert] = await alerts();
    expect(alert!.state).toBe('resolved');
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
    pagerDuty(await enqueue(withKey(resolve), ''), 202, processed('dedupkeyhere'));
  });

  it("Alertmanager's own trigger and resolve (captured): one call, then cancelled", async () => {
    const trigger = fixture('alertmanager-pagerduty-trigger.alertmanager-0.25-captured.json');
    const resolve = fixture('alertmanager-pagerduty-resolve.alertmanager-0.25-captured.json');
    const r = await enqueue(withKey(trigger.body));
    expect(r).toMatchObject({ status: 202, json: { dedup_key: trigger.body.dedup_key } });
    const [alert] = await alerts();
    expect(alert!.message).toBe('[FIRING:1] node (InstanceDown db9:9100). Alertmanager. error.');
    expect((await enqueue(withKey(resolve.body), '')).status).toBe(202);
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
  });

  it('?policy= on the URL, else the key default policy, gives the numbers', async () => {
    const policy = await rig.store.transaction((tx) => tx.policies.create({ accountId: rig.acc.id, name: 'oncall', steps: [{ numbers: ['5321111111'], wait_s: 300 }], rounds: 1 }, rig.clock()));
    const event = withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json'));
    expect((await enqueue(event, '?policy=oncall')).status).toBe(202);
    const [alert] = await alerts();
    expect((await callsOf(alert!.id)).map((c) => c.phoneNumber)).toEqual(['5321111111']);
    await rig.store.transaction((tx) => tx.policies.setDefault(rig.acc.credentialId, policy.id));
    expect((await enqueue({ ...event, dedup_key: 'other' }, '')).status).toBe(202);
    const other = (await alerts()).find((a) => a.key === 'other')!;
    expect((await callsOf(other.id)).map((c) => c.phoneNumber)).toEqual(['5321111111']);
  });

  it('invalid events: 400 with PagerDuty status, message and the errors, nothing stored', async () => {
    const invalid = (r: Answer, errors: string[]) => pagerDuty(r, 400, { status: 'invalid event', message: 'Event object is invalid', errors });
    invalid(await enqueue('{"routing_key":' as unknown as Record<string, unknown>), ['JSON parse error']);
    invalid(await enqueue({ event_action: 'trigger', payload: {} }), [
      "'routing_key' cannot be blank",
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' is missing or blank",
    ]);
    invalid(await enqueue(withKey({ payload: { summary: 's', source: 'h', severity: 'error' } })), ["'event_action' is missing or blank"]);
    invalid(await enqueue(withKey({ event_action: 'fire', dedup_key: 'k' })), ["'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')"]);
    invalid(await enqueue(withKey({ event_action: 'trigger', payload: { summary: 's', source: 'h', severity: 'fatal' } })), [
      "'payload.severity' is invalid (must be one of the following: 'critical', 'warning', 'error' or 'info')",
    ]);
    invalid(await enqueue(withKey({ event_action: 'resolve' })), ["'dedup_key' is missing or blank"]);
    expect(await alerts()).toEqual([]);
  });

  it('an unknown routing key is 400 "Invalid routing key", exactly the three fields', async () => {
    const r = await enqueue({ ...fixture('pagerduty-trigger.pagerduty-openapi-example.json') });
    pagerDuty(r, 400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] });
  });

  it('the numbers of the URL are checked as the webhook checks them; none at all is refused', async () => {
    const event = withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json'));
    expect((await enqueue(event, '?to=123')).json).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid phone number: 123'] });
    expect((await enqueue(event, '')).json.errors).toEqual(['Missing fields: to (the numbers to call, or policy=, in the URL)']);
    expect((await enqueue(event, '?policy=nobody')).json.errors).toEqual(['Unknown escalation policy']);
    expect(await alerts()).toEqual([]);
  });

  it('no credit left: 402 from our catalogue; a Free plan: 403', async () => {
    rig.acc = await account('starter', 0);
    const r = await enqueue(withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json')));
    pagerDuty(r, 402, { status: 'error', message: 'Insufficient call credit', code: 'insufficient_credit' });
    rig.acc = await account('free');
    const f = await enqueue(withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json')));
    pagerDuty(f, 403, { status: 'error', message: 'Your plan does not allow API/webhook access', code: 'plan_refused' });
  });

  it('a dedup_key over our 200 characters (PagerDuty allows 255) still names one alert, and is returned as sent', async () => {
    const long = 'k'.repeat(255);
    const event = withKey({ ...fixture('pagerduty-trigger.pagerduty-openapi-example.json'), dedup_key: long });
    expect((await enqueue(event)).json.dedup_key).toBe(long);
    const [alert] = await alerts();
    expect(alert!.key).toMatch(/^pagerduty:sha256:[0-9a-f]{64}$/);
    expect((await enqueue(withKey({ event_action: 'resolve', dedup_key: long }), '')).status).toBe(202);
    expect((await rig.store.alerts.get(alert!.id))!.state).toBe('resolved');
  });

  it('answers are recorded in the API history under /v2/enqueue', async () => {
    await enqueue(withKey(fixture('pagerduty-trigger.pagerduty-openapi-example.json')));
    await enqueue({ event_action: 'trigger' });
    await rig.store.flush();
    const rows = await rig.store.history.list({ limit: 10 });
    expect(rows.map((h) => [h.endpoint, h.status]).sort()).toEqual([
      ['/v2/enqueue', 202],
      ['/v2/enqueue', 400],
    ]);
  });
});

describe('POST /v2/alerts (Opsgenie Alert API)', () => {
  const genie = () => ({ authorization: `GenieKey ${rig.acc.webhookKey}` });
  const create = (body: unknown, query = '?to=5321234567', headers: Record<string, string> = genie()) => send('POST', `/v2/alerts${query}`, body, headers);
  const act = (identifier: string, action: string, body: unknown, query: string, headers: Record<string, string> = genie()) =>
    send('POST', `/v2/alerts/${encodeURIComponent(identifier)}/${action}${query}`, body, headers);
  /** Opsgenie's answer: these fields and `took`, `requestId` (the X-Request-Id), `took` written with a decimal point. */
  const opsgenie = (r: Answer, status: number, fields: Record<string, unknown>) => {
    expect(r.status).toBe(status);
    expect(r.json).toEqual({ ...fields, took: expect.any(Number), requestId: r.requestId });
    expect(r.text).toMatch(/"took":\d+\.\d+,"requestId":"[^"]+"\}$/);
  };
  const accepted = { result: 'Request will be processed' };

  it('the documented create: 202 "Request will be processed"; alias is the key, message then description spoken, source opsgenie', async () => {
    const r = await create(fixture('opsgenie-create.opsgenie-docs.json'));
    opsgenie(r, 202, accepted);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ key: 'Life is too short for no alias', source: 'opsgenie', state: 'open', message: 'An example alert message. Every alert needs a description.' });
    expect((await callsOf(alert!.id)).map((c) => c.phoneNumber)).toEqual(['5321234567']);
  });

  it('GET /v2/alerts/requests/{requestId} tells how it was processed', async () => {
    const r = await create(fixture('opsgenie-create.opsgenie-docs.json'));
    const [alert] = await alerts();
    const s = await send('GET', `/v2/alerts/requests/${r.json.requestId}`, undefined, genie());
    opsgenie(s, 200, {
      data: { success: true, action: 'Create', processedAt: new Date(rig.clock()).toISOString(), isSuccess: true, status: 'Created alert', alertId: alert!.id, alias: 'Life is too short for no alias' },
    });
    opsgenie(await send('GET', '/v2/alerts/requests/nope', undefined, genie()), 404, { message: 'Request not found. It might not be processed, yet.' });
  });

  it('a repeat is deduplicated; close by alias (the documented body) resolves and cancels', async () => {
    await create(fixture('opsgenie-create.opsgenie-docs.json'));
    opsgenie(await create(fixture('opsgenie-create.opsgenie-docs.json')), 202, accepted);
    const [alert] = await alerts();
    expect(await callsOf(alert!.id)).toHaveLength(1);
    opsgenie(await act('Life is too short for no alias', 'close', fixture('opsgenie-close.opsgenie-docs.json'), '?identifierType=alias'), 202, accepted);
    expect((await rig.store.alerts.get(alert!.id))!.state).toBe('resolved');
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
  });

  it('acknowledge by id (our alt_…, the default identifierType): acknowledged by opsgenie-api', async () => {
    await create(fixture('opsgenie-create.opsgenie-docs.json'));
    const [alert] = await alerts();
    opsgenie(await act(alert!.id, 'acknowledge', { user: 'Monitoring Script', note: 'on it' }, ''), 202, accepted);
    expect(await rig.store.alerts.get(alert!.id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'opsgenie-api' });
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
  });

  it("Alertmanager's own create and close (captured, with its GenieKey header): one call, then cancelled", async () => {
    const created = fixture('alertmanager-opsgenie-create.alertmanager-0.25-captured.json');
    const closed = fixture('alertmanager-opsgenie-close.alertmanager-0.25-captured.json');
    opsgenie(await create(created.body), 202, accepted);
    const [alert] = await alerts();
    expect(alert!.key).toBe(created.body.alias);
    expect(alert!.message.startsWith('[FIRING:1] og (InstanceDown db8:9100 og). db8 is down Alerts Firing:')).toBe(true);
    opsgenie(await send('POST', closed.path, closed.body, genie()), 202, accepted);
    expect((await callsOf(alert!.id)).map((c) => c.state)).toEqual(['cancelled']);
  });

  it('the key: absent or another scheme is 401 "Could not authenticate", a malformed one "Key format is not valid!", an unknown one "Could not authenticate"', async () => {
    const body = fixture('opsgenie-create.opsgenie-docs.json');
    opsgenie(await create(body, '?to=5321234567', {}), 401, { message: 'Could not authenticate' });
    opsgenie(await create(body, '?to=5321234567', { authorization: `Bearer ${rig.acc.webhookKey}` }), 401, { message: 'Could not authenticate' });
    opsgenie(await create(body, '?to=5321234567', { authorization: 'GenieKey eb243592-faa2-4ba2-a551q-1afdf565c889' }), 401, { message: 'Key format is not valid!' });
    opsgenie(await create(body, '?to=5321234567', { authorization: 'GenieKey vwk_unknownunknownunknownunknown12' }), 401, { message: 'Could not authenticate' });
    expect(await alerts()).toEqual([]);
  });

  it('a bad body or identifier type is 422 naming the field', async () => {
    const unprocessable = (errors: Record<string, string>) => ({ message: 'Request body is not processable. Please check the errors.', errors });
    opsgenie(await create({ description: 'no message' }), 422, unprocessable({ message: 'Message can not be empty.' }));
    opsgenie(await create({ message: 'm', priority: 'P9', tags: 'x' }), 422, unprocessable({ priority: 'Priority should be one of [P1, P2, P3, P4, P5]', tags: 'Tags should be a list of strings' }));
    opsgenie(await create('not json'), 422, unprocessable({ body: 'Request body is not valid JSON' }));
    opsgenie(await act('x', 'close', {}, '?identifierType=tiny'), 422, unprocessable({ identifierType: "Identifier type should be 'id' or 'alias'" }));
    opsgenie(await create({ message: 'm' }, '?to=123'), 422, unprocessable({ to: 'Invalid phone number: 123' }));
    expect(await alerts()).toEqual([]);
  });

  it('no credit: 402 with our message in Opsgenie shape', async () => {
    rig.acc = await account('starter', 0);
    opsgenie(await create(fixture('opsgenie-create.opsgenie-docs.json')), 402, { message: 'Insufficient call credit', code: 'insufficient_credit' });
  });

  it('Alertmanager update_alerts PUTs (message, description) and notes are accepted and change nothing', async () => {
    await create(fixture('opsgenie-create.opsgenie-docs.json'));
    opsgenie(await send('PUT', '/v2/alerts/Life%20is%20too%20short%20for%20no%20alias/message?identifierType=alias', { message: 'new' }, genie()), 202, accepted);
    opsgenie(await act('Life is too short for no alias', 'notes', { note: 'n' }, '?identifierType=alias'), 202, accepted);
    const [alert] = await alerts();
    expect(alert).toMatchObject({ state: 'open', message: 'An example alert message. Every alert needs a description.' });
    expect((await send('POST', '/v2/alerts/x/snooze', {}, genie())).status).toBe(404);
  });
});

describe('the edge both share with the webhook', () => {
  /** The app with a rate limit of `perAddress` requests (the rig's allows many). */
  const appLimitedTo = (perAddress: number) => {
    const config = configSchema.parse({});
    const services = createServices({ store: rig.store, clock: rig.clock, config });
    return createHttpApp({
      store: rig.store,
      clock: rig.clock,
      log: silentLogger(),
      config,
      intake: { store: rig.store, clock: rig.clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
      services,
      rateLimiter: createRateLimiter(perAddress, rig.clock),
    });
  };

  it('one rate budget per address (429 + Retry-After) and the body limit (413), in each API\'s shape', async () => {
    const limited = appLimitedTo(1);
    const post = (path: string, body: string) => limited.handle(new Request(`http://localhost${path}`, { method: 'POST', body, headers: { authorization: `GenieKey ${rig.acc.webhookKey}` } }));
    const big = JSON.stringify({ message: 'x'.repeat(70 * 1024) });
    const ogBig = await post('/v2/alerts?to=5321234567', big);
    expect(ogBig.status).toBe(413);
    expect(await ogBig.json()).toEqual({ message: 'Request body too large', code: 'body_too_large', took: expect.any(Number), requestId: ogBig.headers.get('x-request-id') });
    expect(await alerts()).toEqual([]);
    const pd = await post('/v2/enqueue', '{}');
    expect(pd.status).toBe(429);
    expect(pd.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await pd.json()).toEqual({ status: 'error', message: 'Rate limit exceeded', code: 'rate_limited' });
    const og = await post('/v2/alerts', '{}');
    expect(og.status).toBe(429);
    expect(og.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await og.json()).toEqual({ message: 'Rate limit exceeded', code: 'rate_limited', took: expect.any(Number), requestId: og.headers.get('x-request-id') });
  });

  it("the body limit (413) on PagerDuty's endpoint, in its shape; nothing stored", async () => {
    const app = appLimitedTo(100);
    const event = { ...fixture('pagerduty-trigger.pagerduty-openapi-example.json'), routing_key: rig.acc.webhookKey, payload: { summary: 'x'.repeat(70 * 1024), source: 'h', severity: 'error' } };
    const r = await app.handle(new Request('http://localhost/v2/enqueue?to=5321234567', { method: 'POST', body: JSON.stringify(event) }));
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ status: 'error', message: 'Request body too large', code: 'body_too_large' });
    expect(await alerts()).toEqual([]);
  });
});
