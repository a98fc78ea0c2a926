import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { FORM, post } from '../helpers/http';

// docs/integrations.md "Integration recipes" (native sources) and "Configuration"
// (`numbers.accept`), against the compiled binary, with the real payloads in test/fixtures/sources.
// Resolve and dedupe by key are the alerts work's; here: recognised, spoken, queued.
let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'sources');
const raw = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const hook = (query = 'to=5321234567') => `${app.url}/webhook/receive?key=${encodeURIComponent(cred.webhookKey)}&${query}`;

async function db() {
  return dir.database();
}
async function calls(ids: string[]) {
  const d = await db();
  const rows: { phone_number: string; message: string }[] = [];
  for (const id of ids) rows.push((await d.query('SELECT phone_number, message FROM calls WHERE id = ?').get(id)) as { phone_number: string; message: string });
  await d.close();
  return rows;
}
async function callCount() {
  const d = await db();
  const { n } = (await d.query('SELECT count(*) AS n FROM calls').get()) as { n: number };
  await d.close();
  return n;
}

beforeAll(async () => {
  // The fixture's SubscribeURL is AWS's and tests stay on loopback: only localhost is allowed,
  // so the configured confirmer decides (and says so) without any GET.
  dir = applianceDir({
    integrations: { sns_confirm_hosts: ['localhost'] },
    numbers: { accept: ['tr-mobile', 'tr-landline', 'e164', 'extension'] },
    tts: { voice: 'tr' },
  });
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

describe('native payloads become calls with words made for listening', () => {
  it.each([
    ['alertmanager-firing.alertmanager-0.25-captured.json', {}, 'Instance Down. MySQL on db2 is down. db2:9104.'],
    [
      'alertmanager-group-of-3-firing.alertmanager-0.25-captured.json',
      {},
      '3 alarm. Birinci: Instance Down. db1 is down. db1:9100. İkinci: High Load. web1 load is high. web1:9100. Üçüncü: Disk Full. Disk on web2 is 95% full. web2:9100.',
    ],
    [
      'grafana-firing.grafana-docs-webhook-notifier.json',
      {},
      '2 alarm. Birinci: High memory usage. This alert was triggered for zone us-1. İkinci: High CPU usage. This alert was triggered for zone eu-1.',
    ],
    [
      'sns-cloudwatch-alarm.aws-lambda-go-testdata.json',
      { 'x-amz-sns-message-type': 'Notification', 'content-type': 'text/plain; charset=UTF-8' },
      'EXAMPLE. Threshold Crossed: 1 out of the last 1 datapoints [1234.0 (06/03/15 17:43:27)] was greater than the threshold (0.0) (minimum 1 datapoint for OK -> ALARM transition).',
    ],
    ['azure-fired.azure-docs-payload-samples.json', {}, 'WCUS-R2-Gen2. Önem derecesi 3. Tetiklendi. wcus-r2-gen2.'],
    ['uptime-kuma-down.webhook-provider.json', {}, 'Test. Down. getaddrinfo ENOTFOUND test.com.'],
  ] as const)('%s → 200, one call to the query number with the spoken text', async (name, headers, text) => {
    const r = await post(hook(), raw(name), { 'content-type': 'application/json', ...headers });
    expect(r).toMatchObject({ status: 200, json: { status: 'success', message: '1 call(s) queued' } });
    expect(await calls(r.json.call_ids)).toEqual([{ phone_number: '5321234567', message: text }]);
  });

  it.each([
    ['alertmanager-firing.alertmanager-0.25-captured.json', 'alertmanager-resolved.alertmanager-0.25-captured.json'],
    ['alertmanager-group-of-3-firing.alertmanager-0.25-captured.json', 'alertmanager-group-of-3-resolved.alertmanager-0.25-captured.json'],
    ['grafana-firing.grafana-docs-webhook-notifier.json', 'grafana-resolved.grafana-docs-webhook-notifier.json'],
    ['azure-fired.azure-docs-payload-samples.json', 'azure-resolved.azure-docs-payload-samples.json'],
    ['uptime-kuma-down.webhook-provider.json', 'uptime-kuma-up.webhook-provider.json'],
  ])('%s then its resolution %s: "Alert resolved", the waiting call cancelled (never a 4xx: Alertmanager drops those)', async (firing, resolved) => {
    const fired = await post(hook(), raw(firing), { 'content-type': 'application/json' });
    expect(fired.status).toBe(200);
    const r = await post(hook(), raw(resolved), { 'content-type': 'application/json' });
    expect(r).toMatchObject({ status: 200, json: { status: 'success', message: 'Alert resolved', alert_id: fired.json.alert_id } });
    // The alert's waiting calls: this delivery's, or those of the earlier delivery it repeated.
    const waiting = [...fired.json.call_ids, ...(fired.json.deduplicated_call_ids ?? [])].sort();
    expect(waiting.length).toBeGreaterThan(0);
    expect([...r.json.cancelled_call_ids].sort()).toEqual(waiting);
    // Late or repeated resolutions are still 200, with nothing left to cancel.
    expect((await post(hook(), raw(resolved), { 'content-type': 'application/json' })).json).toMatchObject({ message: 'Alert resolved', cancelled_call_ids: [] });
  });

  it('a CloudWatch alarm over SNS, then its OK: the alarm call is cancelled', async () => {
    const sns = { 'x-amz-sns-message-type': 'Notification', 'content-type': 'text/plain; charset=UTF-8' };
    const fired = await post(hook(), raw('sns-cloudwatch-alarm.aws-lambda-go-testdata.json'), sns);
    const r = await post(hook(), raw('sns-cloudwatch-ok.aws-lambda-go-testdata.json'), sns);
    expect(r).toMatchObject({ status: 200, json: { message: 'Alert resolved' } });
    expect([...r.json.cancelled_call_ids].sort()).toEqual([...fired.json.call_ids, ...(fired.json.deduplicated_call_ids ?? [])].sort());
    expect(r.json.cancelled_call_ids.length).toBeGreaterThan(0);
  });

  it("reads Uptime Kuma's multipart form-data mode (the JSON in field `data`)", async () => {
    const form = new FormData();
    form.append('data', raw('uptime-kuma-down.webhook-provider.json'));
    const res = await fetch(hook(), { method: 'POST', body: form });
    const json = (await res.json()) as { message: string; call_ids: string[] };
    expect(res.status).toBe(200);
    expect(json.message).toBe('1 call(s) queued');
    expect((await calls(json.call_ids))[0]!.message).toBe('Test. Down. getaddrinfo ENOTFOUND test.com.');
  });

  it('?source= forces an adapter; numbers may come as phone_number= and several', async () => {
    const body = JSON.parse(raw('alertmanager-firing.alertmanager-0.25-captured.json'));
    delete body.version;
    const r = await post(hook('source=alertmanager&phone_number=5321234567,5321234568'), body);
    expect(r).toMatchObject({ status: 200, json: { message: '2 call(s) queued' } });
    expect((await calls(r.json.call_ids)).map((c) => c.message)).toEqual(['Instance Down. MySQL on db2 is down. db2:9104.', 'Instance Down. MySQL on db2 is down. db2:9104.']);
  });

  it('without numbers anywhere a native payload is 400 Missing fields', async () => {
    const r = await post(hook('x=1'), raw('alertmanager-firing.alertmanager-0.25-captured.json'), { 'content-type': 'application/json' });
    expect(r).toMatchObject({ status: 400, json: { message: 'Missing fields', missing: ['phone_number'] } });
  });

  it('a known shape with nothing to say is 400 Missing fields, never a silent call; truncated JSON is 400 Malformed request', async () => {
    const empty = { version: '4', groupKey: '{}:{}', status: 'firing', receiver: 'voice', alerts: [{ status: 'firing', labels: {}, annotations: {} }] };
    expect(await post(hook(), empty)).toMatchObject({ status: 400, json: { message: 'Missing fields', missing: ['error_message'] } });
    const truncated = raw('alertmanager-firing.alertmanager-0.25-captured.json').slice(0, 200);
    expect(await post(hook(), truncated, { 'content-type': 'application/json' })).toMatchObject({ status: 400, json: { message: 'Malformed request' } });
  });

  it('an unknown shape falls through to the plain fields', async () => {
    const before = await callCount();
    expect(await post(hook(), { event: 'something' })).toMatchObject({ status: 400, json: { message: 'Missing fields' } });
    expect(await callCount()).toBe(before);
  });
});

describe('SNS subscription confirmation', () => {
  it('answers 200 "Subscription confirmation received", queues nothing, keeps the URL in the history', async () => {
    const before = await callCount();
    const r = await post(hook(), raw('sns-subscription-confirmation.aws-docs.json'), {
      'x-amz-sns-message-type': 'SubscriptionConfirmation',
      'content-type': 'text/plain; charset=UTF-8',
    });
    expect(r).toMatchObject({ status: 200, json: { status: 'success', message: 'Subscription confirmation received', confirmation: 'host_not_allowed' } });
    expect(await callCount()).toBe(before);
    await Bun.sleep(100); // the history write is in the background (store.background)
    const d = await db();
    const row = (await d.query("SELECT message FROM api_history WHERE message LIKE 'Subscription confirmation received%' ORDER BY id DESC").get()) as { message: string };
    await d.close();
    expect(row.message).toMatch(/^Subscription confirmation received: https:\/\/sns\.us-west-2\.amazonaws\.com\/\?Action=ConfirmSubscription/);
  });
});

describe('form bodies', () => {
  it('a raw % that is not an escape is read as it is (PRTG placeholders)', async () => {
    const r = await post(hook(), 'phone_number=5321234567&error_message=CPU+load+95%+on+%C5%9Fube', FORM);
    expect(r.status).toBe(200);
    expect((await calls(r.json.call_ids))[0]!.message).toBe('CPU load 95% on şube');
  });
});

describe('numbers.accept', () => {
  it('calls a landline, an E.164 number and an extension when configured', async () => {
    const r = await post(hook('x=1'), { phone_number: '0212 555 12 12, +14155552671, 1234', error_message: 'Disk dolu' });
    expect(r).toMatchObject({ status: 200, json: { message: '3 call(s) queued' } });
    expect((await calls(r.json.call_ids)).map((c) => c.phone_number)).toEqual(['02125551212', '+14155552671', '1234']);
  });

  it('an invalid number keeps its 400 message and names the accepted forms', async () => {
    const r = await post(hook('x=1'), { phone_number: '12', error_message: 'Disk dolu' });
    expect(r).toMatchObject({
      status: 400,
      json: { status: 'error', message: 'Invalid phone number: 12', code: 'invalid_phone_number', accepted: ['tr-mobile', 'tr-landline', 'e164', 'extension'] },
    });
    const api = await post(`${app.url}/api/call`, { api_key: cred.apiKey, api_secret: cred.apiSecret, phone_number: '12', error_message: 'x' });
    expect(api).toMatchObject({ status: 400, json: { message: 'Invalid phone number', accepted: ['tr-mobile', 'tr-landline', 'e164', 'extension'] } });
  });
});
