import { describe, expect, it } from 'vitest';
import { compatFixture as fixture, compatRig, type CompatAnswer as Answer } from '../../test/helpers/compat-intake';

// docs/integrations.md "Scripts written for Opsgenie and PagerDuty": the requests Opsgenie's
// Heartbeat and Alert API docs and PagerDuty's change events docs show, answered field by field
// in their shapes, with only the host changed.
const rig = compatRig();
const { send, account, alerts } = rig;
const genie = (key = rig.acc.webhookKey) => ({ authorization: `GenieKey ${key}` });

/** Opsgenie's envelope: the fields, then `took` (seconds) and `requestId` (also the X-Request-ID header). */
function opsgenie(r: Answer, status: number, fields: Record<string, unknown>) {
  expect(r.status).toBe(status);
  const { took, requestId, ...rest } = r.json;
  expect(rest).toEqual(fields);
  expect(typeof took).toBe('number');
  expect(requestId).toBe(r.requestId);
}

async function heartbeat(name: string, accountId = rig.acc.id) {
  const { createHeartbeatService } = await import('../heartbeats');
  const r = await createHeartbeatService({ store: rig.store, clock: rig.clock, timeZone: 'UTC' }).create(accountId, { name, interval_s: 3600, to: ['5321234567'] });
  if (!r.ok) throw new Error(r.code);
  return r.heartbeat;
}

/** An alert through the Opsgenie create the docs show, a minute after the last. */
async function created(alias: string, extra: Record<string, unknown> = {}) {
  rig.clock.advance(60_000);
  const r = await send('POST', '/v2/alerts?to=5321234567', { message: `disk full on ${alias}`, alias, ...extra }, genie());
  expect(r.status).toBe(202);
  return (await alerts()).find((a) => a.key === alias)!;
}

describe('GET|POST|PUT|PATCH /v2/heartbeats/{name}/ping (Opsgenie Heartbeat API)', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH'])("%s, as the docs' sample: 202 PONG, the account's heartbeat of that name is up from now", async (method) => {
    const hb = await heartbeat('HeartbeatName');
    rig.clock.advance(5_000);
    const r = await send(method, '/v2/heartbeats/HeartbeatName/ping', undefined, genie());
    opsgenie(r, 202, { result: 'PONG - Heartbeat received' });
    const after = (await rig.store.heartbeats.find(rig.acc.id, hb.id))!;
    // Pinged now by the lease clock: late after interval + grace. On PostgreSQL that clock is the
    // database's, read once for each column, so the two may be a millisecond apart.
    expect(after.state).toBe('up');
    expect(after.lastPingAt).not.toBeNull();
    expect(after.deadlineAt! - after.lastPingAt!).toBeGreaterThanOrEqual((3600 + 60) * 1000);
    expect(after.deadlineAt! - after.lastPingAt!).toBeLessThan((3600 + 60) * 1000 + 1000);
  });

  it('a name with spaces, percent-encoded in the path, names that heartbeat', async () => {
    await heartbeat('nightly backup');
    opsgenie(await send('POST', '/v2/heartbeats/nightly%20backup/ping', {}, genie()), 202, { result: 'PONG - Heartbeat received' });
    expect((await rig.store.heartbeats.find(rig.acc.id, 'nightly backup'))!.state).toBe('up');
  });

  it("a name the key's account has not: 404 naming it; another account's heartbeat of that name is not touched", async () => {
    const other = await account('starter');
    await heartbeat('db', other.id);
    opsgenie(await send('GET', '/v2/heartbeats/db/ping', undefined, genie()), 404, { message: 'Heartbeat with name [db] does not exist' });
    expect((await rig.store.heartbeats.find(other.id, 'db'))!.state).toBe('new');
    opsgenie(await send('GET', '/v2/heartbeats/db/ping', undefined, genie(other.webhookKey)), 202, { result: 'PONG - Heartbeat received' });
  });

  it('no GenieKey, a key of another format, an unknown key: 401 as Opsgenie words it', async () => {
    await heartbeat('db');
    opsgenie(await send('GET', '/v2/heartbeats/db/ping'), 401, { message: 'Could not authenticate' });
    opsgenie(await send('GET', '/v2/heartbeats/db/ping', undefined, genie('eb243592-faa2-4ba2-a551q-1afdf565c889')), 401, { message: 'Key format is not valid!' });
    opsgenie(await send('GET', '/v2/heartbeats/db/ping', undefined, genie('vwk_unknown0000')), 401, { message: 'Could not authenticate' });
    expect((await rig.store.heartbeats.find(rig.acc.id, 'db'))!.state).toBe('new');
  });
});

describe('GET /v2/alerts/{identifier} (Opsgenie Get Alert)', () => {
  it('by alias, by id (the default) and by tiny: the same alert in Get Alert\'s shape, field by field', async () => {
    rig.clock.advance(60_000);
    const createdAt = new Date(rig.clock()).toISOString();
    const body = fixture('opsgenie-create.opsgenie-docs.json');
    expect((await send('POST', '/v2/alerts?to=5321234567', body, genie())).status).toBe(202);
    const [alert] = await alerts();
    const data = {
      id: alert!.id,
      tinyId: alert!.id,
      alias: 'Life is too short for no alias',
      message: 'An example alert message. Every alert needs a description.',
      status: 'open',
      acknowledged: false,
      isSeen: false,
      tags: [],
      snoozed: false,
      count: 1,
      lastOccurredAt: createdAt,
      createdAt,
      updatedAt: createdAt,
      source: 'opsgenie',
      owner: '',
      priority: 'P3',
      responders: [],
      integration: { id: rig.acc.credentialId, name: 'opsgenie', type: 'opsgenie' },
      report: {},
      actions: [],
      entity: '',
      description: '',
      details: { key1: 'value1', key2: 'value2' },
    };
    opsgenie(await send('GET', '/v2/alerts/Life%20is%20too%20short%20for%20no%20alias?identifierType=alias', undefined, genie()), 200, { data });
    opsgenie(await send('GET', `/v2/alerts/${alert!.id}`, undefined, genie()), 200, { data });
    opsgenie(await send('GET', `/v2/alerts/${alert!.id}?identifierType=id`, undefined, genie()), 200, { data });
    opsgenie(await send('GET', `/v2/alerts/${alert!.id}?identifierType=tiny`, undefined, genie()), 200, { data });
  });

  it('acknowledged through the API: closed here, acknowledged, seen, with ackTime and closeTime in ms and who', async () => {
    const alert = await created('core-sw');
    rig.clock.advance(15_702);
    expect((await send('POST', '/v2/alerts/core-sw/acknowledge?identifierType=alias', {}, genie())).status).toBe(202);
    const r = await send('GET', '/v2/alerts/core-sw?identifierType=alias', undefined, genie());
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({
      id: alert.id,
      status: 'closed',
      acknowledged: true,
      isSeen: true,
      updatedAt: new Date(rig.clock()).toISOString(),
      report: { ackTime: 15_702, closeTime: 15_702, acknowledgedBy: 'opsgenie-api' },
    });
  });

  it('closed through the API: closed, not acknowledged, closeTime only', async () => {
    await created('core-sw');
    rig.clock.advance(60_503);
    expect((await send('POST', '/v2/alerts/core-sw/close?identifierType=alias', {}, genie())).status).toBe(202);
    const r = await send('GET', '/v2/alerts/core-sw?identifierType=alias', undefined, genie());
    expect(r.json.data).toMatchObject({ status: 'closed', acknowledged: false, isSeen: false, report: { closeTime: 60_503 } });
  });

  it('an alias with a percent sign, percent-encoded in the path, is decoded once (disk%20full stays itself)', async () => {
    const alert = await created('disk%20full');
    await created('disk full');
    const r = await send('GET', `/v2/alerts/${encodeURIComponent('disk%20full')}?identifierType=alias`, undefined, genie());
    expect([r.status, r.json.data?.id, r.json.data?.alias]).toEqual([200, alert.id, 'disk%20full']);
  });

  it("an unknown id or alias, and another account's alert: 404 Alert does not exist", async () => {
    const other = await account('starter');
    rig.clock.advance(60_000);
    await send('POST', '/v2/alerts?to=5321234567', { message: 'theirs', alias: 'theirs' }, genie(other.webhookKey));
    const theirs = (await rig.store.alerts.list({ accountId: other.id }))[0]!;
    for (const path of ['/v2/alerts/alt_00000000000000000000', '/v2/alerts/nothing?identifierType=alias', `/v2/alerts/${theirs.id}`, '/v2/alerts/theirs?identifierType=alias']) {
      opsgenie(await send('GET', path, undefined, genie()), 404, { message: 'Alert does not exist' });
    }
  });

  it('an identifierType Opsgenie does not have: 422 naming it', async () => {
    opsgenie(await send('GET', '/v2/alerts/x?identifierType=name', undefined, genie()), 422, {
      message: 'Request parameters are not valid. Please check the errors.',
      errors: { identifierType: 'Identifier type should be one of [id, alias, tiny]' },
    });
  });

  it('no key: 401', async () => {
    opsgenie(await send('GET', '/v2/alerts/x'), 401, { message: 'Could not authenticate' });
  });
});

describe('GET /v2/alerts (Opsgenie List Alerts) and GET /v2/alerts/count', () => {
  /** a (acknowledged), b (closed), c, d, e (open), a minute apart. */
  async function five() {
    for (const alias of ['a', 'b', 'c', 'd', 'e']) await created(alias);
    rig.clock.advance(60_000);
    await send('POST', '/v2/alerts/a/acknowledge?identifierType=alias', {}, genie());
    rig.clock.advance(60_000);
    await send('POST', '/v2/alerts/b/close?identifierType=alias', {}, genie());
  }
  const aliases = (r: Answer) => (r.json.data as { alias: string }[]).map((a) => a.alias);

  it('no parameters: newest first, 20 at most, items in the list shape (no details), paging links first and last', async () => {
    await five();
    const r = await send('GET', '/v2/alerts', undefined, genie());
    expect(r.status).toBe(200);
    expect(aliases(r)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(Object.keys(r.json.data[0]).sort()).toEqual(
      ['acknowledged', 'alias', 'count', 'createdAt', 'id', 'integration', 'isSeen', 'lastOccurredAt', 'message', 'owner', 'priority', 'report', 'responders', 'snoozed', 'source', 'status', 'tags', 'tinyId', 'updatedAt'].sort(),
    );
    expect(r.json.paging).toEqual({ first: 'http://localhost/v2/alerts?offset=0&limit=20', last: 'http://localhost/v2/alerts?offset=0&limit=20' });
  });

  it('query=status:open with limit and offset: pages, the next link (body and X-Paging-Next) until the last page', async () => {
    await five();
    const first = await send('GET', '/v2/alerts?query=status%3Aopen&limit=2&sort=createdAt&order=desc', undefined, genie());
    expect(aliases(first)).toEqual(['e', 'd']);
    const next = 'http://localhost/v2/alerts?query=status%3Aopen&limit=2&sort=createdAt&order=desc&offset=2';
    expect(first.json.paging).toEqual({
      first: 'http://localhost/v2/alerts?query=status%3Aopen&limit=2&sort=createdAt&order=desc&offset=0',
      last: next,
      next,
    });
    const second = await send('GET', new URL(first.json.paging.next).pathname + new URL(first.json.paging.next).search, undefined, genie());
    expect(aliases(second)).toEqual(['c']);
    expect(second.json.paging.next).toBeUndefined();
  });

  it('X-Paging-First, -Last and -Next carry the same links', async () => {
    await five();
    const r = await send('GET', '/v2/alerts?limit=2', undefined, genie());
    expect(r.json.paging).toEqual({
      first: 'http://localhost/v2/alerts?limit=2&offset=0',
      last: 'http://localhost/v2/alerts?limit=2&offset=4',
      next: 'http://localhost/v2/alerts?limit=2&offset=2',
    });
    expect([r.headers.get('x-paging-first'), r.headers.get('x-paging-last'), r.headers.get('x-paging-next')]).toEqual([r.json.paging.first, r.json.paging.last, r.json.paging.next]);
  });

  it('order=asc, sort=updatedAt; status:closed AND acknowledged:false; alias; tinyId', async () => {
    await five();
    expect(aliases(await send('GET', '/v2/alerts?order=asc', undefined, genie()))).toEqual(['a', 'b', 'c', 'd', 'e']);
    // a and b changed last (acknowledged, closed), b after a.
    expect(aliases(await send('GET', '/v2/alerts?sort=updatedAt&order=desc&limit=2', undefined, genie()))).toEqual(['b', 'a']);
    expect(aliases(await send('GET', `/v2/alerts?query=${encodeURIComponent('status:closed AND acknowledged:false')}`, undefined, genie()))).toEqual(['b']);
    expect(aliases(await send('GET', `/v2/alerts?query=${encodeURIComponent('acknowledged: true')}`, undefined, genie()))).toEqual(['a']);
    expect(aliases(await send('GET', `/v2/alerts?query=${encodeURIComponent('alias:"d"')}`, undefined, genie()))).toEqual(['d']);
    const c = (await alerts()).find((a) => a.key === 'c')!;
    expect(aliases(await send('GET', `/v2/alerts?query=tinyId:${c.id}`, undefined, genie()))).toEqual(['c']);
  });

  it('count: all, status:open, status:closed, in Count Alerts\' shape; another account\'s alerts are not counted', async () => {
    await five();
    const other = await account('starter');
    await send('POST', '/v2/alerts?to=5321234567', { message: 'theirs' }, genie(other.webhookKey));
    opsgenie(await send('GET', '/v2/alerts/count', undefined, genie()), 200, { data: { count: 5 } });
    opsgenie(await send('GET', '/v2/alerts/count?query=status%3Aopen', undefined, genie()), 200, { data: { count: 3 } });
    opsgenie(await send('GET', '/v2/alerts/count?query=status%3Aclosed', undefined, genie()), 200, { data: { count: 2 } });
  });

  it('what cannot be answered exactly is a 422 naming it, never a list that ignored part of the question', async () => {
    const invalid = 'Request parameters are not valid. Please check the errors.';
    const q = (query: string) => send('GET', `/v2/alerts?query=${encodeURIComponent(query)}`, undefined, genie());
    opsgenie(await q('status:open OR status:closed'), 422, {
      message: invalid,
      errors: { query: '"status:open OR status:closed" is not supported here: give field:value terms joined by AND (status, acknowledged, alias, tinyId, id)' },
    });
    opsgenie(await q('priority:P1'), 422, { message: invalid, errors: { query: '"priority" is not a field this appliance can search (status, acknowledged, alias, tinyId, id)' } });
    opsgenie(await q('status:resolved'), 422, { message: invalid, errors: { query: 'status should be open or closed, not "resolved"' } });
    opsgenie(await send('GET', '/v2/alerts?limit=101&offset=-1&sort=priority&order=up', undefined, genie()), 422, {
      message: invalid,
      errors: {
        limit: 'Limit should be between 1 and 100',
        offset: 'Offset should be a non-negative integer',
        sort: 'Sort field should be one of [createdAt, lastOccurredAt, tinyId, updatedAt]',
        order: 'Order should be one of [asc, desc]',
      },
    });
    opsgenie(await send('GET', '/v2/alerts/count?searchIdentifier=abc&searchIdentifierType=id', undefined, genie()), 422, {
      message: invalid,
      errors: { searchIdentifier: 'Saved searches are not kept here: give the query itself' },
    });
  });
});

describe('POST /v2/change/enqueue (PagerDuty change events)', () => {
  it('the documented change event: 202 as PagerDuty answers it, recorded, nobody called, no alert', async () => {
    const r = await send('POST', '/v2/change/enqueue', { ...fixture('pagerduty-change.pagerduty-docs.json'), routing_key: rig.acc.webhookKey });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ status: 'success', message: 'Change event processed' });
    expect(await alerts()).toEqual([]);
    expect(await rig.used()).toBe(0);
  });

  it("the docs' own placeholder key is unknown here: 400 Invalid routing key", async () => {
    const r = await send('POST', '/v2/change/enqueue', fixture('pagerduty-change.pagerduty-docs.json'));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] });
  });

  it('without routing_key and payload.summary: 400 listing both, as PagerDuty lists errors', async () => {
    const r = await send('POST', '/v2/change/enqueue', { payload: { source: 'ci' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: ["'routing_key' cannot be blank", "'payload.summary' is missing or blank"] });
  });
});
