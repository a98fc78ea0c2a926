import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlertmanager } from '../helpers/alertmanager';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import type { ApplianceDatabase } from '../helpers/appliance-database';
import { docBlock, docSection } from '../helpers/docs';

// docs/integrations.md "PagerDuty and Opsgenie compatible intake", its recipes run as written
// (host, key and numbers replaced) against the compiled binary: Alertmanager's with the real Debian
// Alertmanager, Grafana's and Zabbix's by sending the bodies those tools send
// (test/fixtures/compat).
const section = docSection('docs/integrations.md', '## PagerDuty and Opsgenie compatible intake');
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'compat');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

/** The first fenced block after `**<title>**` in the section. */
const block = (title: string) => docBlock(section, title);

let dir: ApplianceDir;
let app: RunningAppliance;
let db: ApplianceDatabase;
/** Numbers from `?to=`. */
let cred: ReturnType<typeof provision>;
/** Numbers from the key's default policy (a step calling POLICY_NUMBER). */
let policyCred: ReturnType<typeof provision>;
const POLICY_NUMBER = '5321234580';

const localise = (text: string, key: string, to?: string) => {
  const out = text.replaceAll('http://voice-alert.lan:8080', app.url).replaceAll('vwk_…', key);
  return to ? out.replaceAll('to=5321234567', `to=${to}`) : out;
};

beforeAll(async () => {
  dir = applianceDir();
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  policyCred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  dir.cliJson(['policy', 'create', policyCred.accountId, '--name', 'oncall', '--step', `${POLICY_NUMBER}:300`, '--rounds', '1']);
  dir.cliJson(['policy', 'set-default', policyCred.accountId, policyCred.apiKey, 'oncall']);
  app = await dir.start();
  db = dir.database();
});
afterAll(async () => {
  await db?.close();
  await app?.stop();
});

interface AlertRow {
  id: string;
  alert_key: string;
  source: string;
  state: string;
  acknowledged_by: string | null;
}
const alertsOf = async (accountId: string) => (await db.query('SELECT id, alert_key, source, state, acknowledged_by FROM alerts WHERE account_id = ? ORDER BY created_at').all(accountId)) as AlertRow[];
const callsOf = async (alertId: string) =>
  (await db.query('SELECT phone_number, state FROM calls WHERE alert_id = ? ORDER BY created_at').all(alertId)) as { phone_number: string; state: string }[];
const historyOf = async (accountId: string) =>
  (await db.query('SELECT endpoint, status, count FROM api_history WHERE account_id = ? ORDER BY id').all(accountId)) as { endpoint: string; status: number; count: number }[];
/** How many requests the history counts (repeats of one minute may share a row). */
const accepted = async (accountId: string, endpoint: string) =>
  (await historyOf(accountId)).filter((h) => h.endpoint === endpoint && h.status === 202).reduce((n, h) => n + (h.count ?? 1), 0);
const poll = <T>(f: () => Promise<T>) => expect.poll(f, { timeout: 25_000, interval: 200 });

/** An Alertmanager routing every alert to the recipe's receiver `voice`, repeating a firing group every 2 s. */
const amConfig = (receivers: string) =>
  `route:\n  receiver: voice\n  group_by: [alertname]\n  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 2s\n${receivers.startsWith('receivers:') ? receivers : `receivers:\n${receivers}`}`;

/**
 * Posts a firing alert to Alertmanager: it becomes one alert with one call; Alertmanager's
 * repeats are deduplicated (still one call); its resolution cancels the call.
 */
async function fireRepeatResolve(am: Awaited<ReturnType<typeof startAlertmanager>>, accountId: string, alertname: string, number: string, endpoint: string, source: string) {
  const labels = { alertname, instance: 'db9:9100' };
  const annotations = { summary: 'db9 is down' };
  await am.postAlerts([{ labels, annotations }]);
  await poll(async () => (await alertsOf(accountId)).filter((a) => a.source === source && a.state === 'open').length).toBe(1);
  const alert = (await alertsOf(accountId)).find((a) => a.source === source && a.state === 'open')!;
  await poll(async () => (await callsOf(alert.id)).map((c) => c.phone_number)).toEqual([number]);
  // Alertmanager repeats the firing group (repeat_interval): accepted again, nobody called again.
  await poll(() => accepted(accountId, endpoint)).toBeGreaterThanOrEqual(2);
  expect(await callsOf(alert.id)).toEqual([{ phone_number: number, state: 'queued' }]);
  expect((await alertsOf(accountId)).filter((a) => a.source === source)).toHaveLength(1);

  await am.postAlerts([{ labels, annotations, startsAt: new Date(Date.now() - 60_000).toISOString(), endsAt: new Date(Date.now() - 1000).toISOString() }]);
  await poll(async () => (await alertsOf(accountId)).find((a) => a.id === alert.id)!.state).toBe('resolved');
  expect(await callsOf(alert.id)).toEqual([{ phone_number: number, state: 'cancelled' }]);
  // Alertmanager drops an event refused with a 4xx: none was.
  expect((await historyOf(accountId)).filter((h) => h.status >= 400)).toEqual([]);
}

describe('the real Alertmanager with the docs receivers', () => {
  it('pagerduty_configs: a firing alert becomes one call, repeats deduplicate, its resolution cancels it', async () => {
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
    const am = await startAlertmanager(amConfig(localise(block('Alertmanager, PagerDuty receiver'), acc.webhookKey, '5321234571')));
    try {
      await fireRepeatResolve(am, acc.accountId, 'PdDown', '5321234571', '/v2/enqueue', 'pagerduty');
    } finally {
      am.stop();
    }
  }, 60_000);

  it('opsgenie_configs (docs, ?to= kept by Alertmanager): one call, repeats deduplicate, the close cancels it', async () => {
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
    const am = await startAlertmanager(amConfig(localise(block('Alertmanager, Opsgenie receiver'), acc.webhookKey, '5321234572')));
    try {
      await fireRepeatResolve(am, acc.accountId, 'OgDown', '5321234572', '/v2/alerts', 'opsgenie');
      // The recipe's message and description are what is spoken.
      const [alert] = await alertsOf(acc.accountId);
      expect(await db.query('SELECT message FROM alerts WHERE id = ?').get(alert!.id)).toEqual({ message: 'OgDown. db9 is down.' });
    } finally {
      am.stop();
    }
  }, 60_000);

  it('opsgenie_configs with only api_url and api_key: the key default policy gives the number', async () => {
    const am = await startAlertmanager(
      amConfig(`  - name: voice\n    opsgenie_configs:\n      - api_url: '${app.url}/'\n        api_key: '${policyCred.webhookKey}'`),
    );
    try {
      await fireRepeatResolve(am, policyCred.accountId, 'PlainDown', POLICY_NUMBER, '/v2/alerts', 'opsgenie');
    } finally {
      am.stop();
    }
  }, 60_000);
});

describe('Grafana and Zabbix recipes, with the bodies those tools send', () => {
  const postJson = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: r.status, json: (await r.json()) as Record<string, any> };
  };

  it("Grafana's PagerDuty contact point: the provisioned url and key; firing calls, resolved cancels", async () => {
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
    const provisioning = localise(block('Grafana, PagerDuty contact point'), acc.webhookKey, '5321234574');
    const url = /url: '([^']+)'/.exec(provisioning)![1]!;
    const key = /integrationKey: '([^']+)'/.exec(provisioning)![1]!;
    const firing = { ...fixture('grafana-pagerduty-trigger.grafana-alerting-notifier.json'), routing_key: key };
    const r = await postJson(url, firing);
    expect(r).toEqual({ status: 202, json: { status: 'success', message: 'Event processed', dedup_key: firing.dedup_key } });
    const [alert] = await alertsOf(acc.accountId);
    expect(alert).toMatchObject({ alert_key: firing.dedup_key, source: 'pagerduty', state: 'open' });
    expect(await callsOf(alert!.id)).toEqual([{ phone_number: '5321234574', state: 'queued' }]);
    expect((await postJson(url, { ...fixture('grafana-pagerduty-resolve.grafana-alerting-notifier.json'), routing_key: key })).status).toBe(202);
    expect(await callsOf(alert!.id)).toEqual([{ phone_number: '5321234574', state: 'cancelled' }]);
  });

  it("Zabbix's PagerDuty media type: the script's URL changed; problem calls, Zabbix's acknowledgement acknowledges, recovery is accepted", async () => {
    const acc = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
    const url = localise(block('Zabbix, PagerDuty media type').trim(), acc.webhookKey, '5321234575');
    // The script throws unless the status is 202 and `status` is "success".
    const send = async (name: string) => {
      const r = await postJson(url, { ...fixture(name), routing_key: acc.webhookKey });
      expect(r.status).toBe(202);
      expect(r.json.status).toBe('success');
    };
    await send('zabbix-pagerduty-trigger.zabbix-media-type.json');
    const [alert] = await alertsOf(acc.accountId);
    expect(alert).toMatchObject({ alert_key: '4711', source: 'pagerduty', state: 'open' });
    expect(await callsOf(alert!.id)).toEqual([{ phone_number: '5321234575', state: 'queued' }]);
    await send('zabbix-pagerduty-acknowledge.zabbix-media-type.json');
    expect((await alertsOf(acc.accountId))[0]).toMatchObject({ state: 'acknowledged', acknowledged_by: 'pagerduty-api' });
    expect(await callsOf(alert!.id)).toEqual([{ phone_number: '5321234575', state: 'cancelled' }]);
    await send('zabbix-pagerduty-resolve.zabbix-media-type.json');
  });

  it("Zabbix's Opsgenie media type: its request sequence (create, request status, acknowledge, close) with the recipe's parameters", async () => {
    const params = (name: string) => new RegExp(`\`${name}\` = \`([^\`]+)\``).exec(section.slice(section.indexOf('**Zabbix, Opsgenie media type**')))![1]!;
    // As the script does: the API URL with a trailing slash, paths appended to it, `GenieKey <token>`.
    const api = localise(params('opsgenie_api'), policyCred.webhookKey) + '/';
    const headers = { authorization: `GenieKey ${policyCred.webhookKey}` };
    const status = async (requestId: string) => {
      const r = await fetch(`${api}requests/${requestId}`, { headers });
      expect(r.status).toBe(200);
      return ((await r.json()) as { data: Record<string, unknown> }).data;
    };
    const created = await postJson(api, fixture('zabbix-opsgenie-create.zabbix-media-type.json'), headers);
    expect(created).toEqual({ status: 202, json: { result: 'Request will be processed', took: expect.any(Number), requestId: expect.any(String) } });
    const alert = (await alertsOf(policyCred.accountId)).find((a) => a.alert_key === '4711')!;
    expect(alert).toMatchObject({ source: 'opsgenie', state: 'open' });
    expect(await callsOf(alert.id)).toEqual([{ phone_number: POLICY_NUMBER, state: 'queued' }]);
    // The script keeps `alertId` as the issue key of the problem.
    expect(await status(created.json.requestId)).toMatchObject({ success: true, alertId: alert.id, alias: '4711' });

    const ack = await postJson(`${api}4711/acknowledge?identifierType=alias`, fixture('zabbix-opsgenie-acknowledge.zabbix-media-type.json'), headers);
    expect(ack.status).toBe(202);
    expect(await status(ack.json.requestId)).toMatchObject({ success: true, action: 'Acknowledge' });
    expect((await alertsOf(policyCred.accountId)).find((a) => a.id === alert.id)).toMatchObject({ state: 'acknowledged', acknowledged_by: 'opsgenie-api' });
    expect(await callsOf(alert.id)).toEqual([{ phone_number: POLICY_NUMBER, state: 'cancelled' }]);

    const close = await postJson(`${api}4711/close?identifierType=alias`, fixture('zabbix-opsgenie-close.zabbix-media-type.json'), headers);
    expect(close.status).toBe(202);
    expect(await status(close.json.requestId)).toMatchObject({ success: true, action: 'Close' });
  });
});
