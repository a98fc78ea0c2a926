import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';

// docs/integrations.md "Scripts written for Opsgenie and PagerDuty", against the compiled binary:
// what a script sends with only the host changed, every method of the heartbeat ping, the
// Alert API's reads and a PagerDuty change event, through the real server's routes.
let dir: ApplianceDir;
let app: RunningAppliance;
let acc: ReturnType<typeof provision>;

beforeAll(async () => {
  dir = applianceDir();
  acc = provision(dir, 'enterprise', ['--monthly-credit', '100']);
  dir.cliJson(['heartbeat', 'create', acc.accountId, '--name', 'nightly-backup', '--interval-s', '3600', '--to', '5321234567']);
  app = await dir.start();
});
afterAll(async () => {
  await app?.stop();
});

const genie = () => ({ authorization: `GenieKey ${acc.webhookKey}`, 'content-type': 'application/json' });

describe('scripts written for Opsgenie and PagerDuty, on the binary', () => {
  it('the heartbeat ping with GET, POST, PUT and PATCH: 202 PONG each time, the heartbeat up', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH']) {
      const r = await fetch(`${app.url}/v2/heartbeats/nightly-backup/ping`, { method, headers: genie() });
      expect(r.status).toBe(202);
      const body = await r.json();
      expect(body).toEqual({ result: 'PONG - Heartbeat received', took: expect.any(Number), requestId: r.headers.get('x-request-id') });
    }
    expect(dir.cliJson(['heartbeat', 'list', acc.accountId])[0]).toMatchObject({ name: 'nightly-backup', state: 'up' });
  });

  it('an alert created through the Alert API is read back by alias, listed and counted in Opsgenie\'s shapes', async () => {
    const created = await fetch(`${app.url}/v2/alerts?to=5321234567`, { method: 'POST', headers: genie(), body: JSON.stringify({ message: 'Core switch down', alias: 'core-sw' }) });
    expect(created.status).toBe(202);
    const one = await (await fetch(`${app.url}/v2/alerts/core-sw?identifierType=alias`, { headers: genie() })).json();
    expect(one.data).toMatchObject({ alias: 'core-sw', message: 'Core switch down.', status: 'open', acknowledged: false, count: 1 });
    const list = await fetch(`${app.url}/v2/alerts?query=${encodeURIComponent('status:open')}&limit=1`, { headers: genie() });
    const listed = await list.json();
    expect(listed.data.map((a: { id: string }) => a.id)).toEqual([one.data.id]);
    expect(listed.paging.first).toBe(`${app.url}/v2/alerts?query=status%3Aopen&limit=1&offset=0`);
    expect(list.headers.get('x-paging-first')).toBe(listed.paging.first);
    expect((await (await fetch(`${app.url}/v2/alerts/count?query=status%3Aopen`, { headers: genie() })).json()).data).toEqual({ count: 1 });
  });

  it('a PagerDuty change event: 202 as PagerDuty answers it, and no alert', async () => {
    const r = await fetch(`${app.url}/v2/change/enqueue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ routing_key: acc.webhookKey, payload: { summary: 'Build Success: deploy 42', source: 'ci' } }),
    });
    expect([r.status, await r.json()]).toEqual([202, { status: 'success', message: 'Change event processed' }]);
    expect(dir.cliJson(['alerts', 'list', acc.accountId]).map((a: { key: string }) => a.key)).toEqual(['core-sw']);
  });
});
