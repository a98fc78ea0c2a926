import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asWebhookFields, recogniseSource, withQueryNumbers, type AdapterResult } from '.';
import { cutForSpeech, nameAsWords } from './speech';
import { listenable } from './uptime-kuma';

const dir = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'sources');
const fixture = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
const snsHeaders = (body: Record<string, unknown>) => ({ 'X-Amz-Sns-Message-Type': String(body.Type) });

function read(name: string, opts: { headers?: Record<string, string>; query?: Record<string, string>; language?: 'tr' | 'en' } = {}) {
  const fields = fixture(name);
  const headers = opts.headers ?? (name.startsWith('sns-') ? snsHeaders(fields) : {});
  const language = opts.language ?? 'tr';
  const result = recogniseSource({ headers, fields, query: opts.query ?? {}, language });
  return { result, fields: result?.kind === 'alert' ? asWebhookFields(result, fields, language) : null };
}

describe('Alertmanager (payloads captured from prometheus-alertmanager 0.25)', () => {
  it('reads one firing alert: name as words, summary, instance; key = groupKey', () => {
    const { result, fields } = read('alertmanager-firing.alertmanager-0.25-captured.json');
    expect(result?.source).toBe('alertmanager');
    expect(fields).toEqual({
      source: 'alertmanager',
      alert_key: '{}:{job="mysql"}',
      error_message: 'Instance Down. MySQL on db2 is down. db2:9104.',
    });
  });

  it('speaks a group of 3 with its count, in Turkish and in English', () => {
    expect(read('alertmanager-group-of-3-firing.alertmanager-0.25-captured.json').fields?.error_message).toBe(
      '3 alarm. Birinci: Instance Down. db1 is down. db1:9100. İkinci: High Load. web1 load is high. web1:9100. Üçüncü: Disk Full. Disk on web2 is 95% full. web2:9100.',
    );
    expect(read('alertmanager-group-of-3-firing.alertmanager-0.25-captured.json', { language: 'en' }).fields?.error_message).toBe(
      '3 alerts. First: Instance Down. db1 is down. db1:9100. Second: High Load. web1 load is high. web1:9100. Third: Disk Full. Disk on web2 is 95% full. web2:9100.',
    );
  });

  it('a resolved group resolves its groupKey', () => {
    for (const name of ['alertmanager-resolved.alertmanager-0.25-captured.json', 'alertmanager-group-of-3-resolved.alertmanager-0.25-captured.json']) {
      const { fields } = read(name);
      expect(fields?.status).toBe('resolved');
      expect(fields?.alert_key).toMatch(/^\{\}:\{job="/);
    }
  });

  it('a firing group speaks only its members still firing', () => {
    const body = fixture('alertmanager-group-of-3-firing.alertmanager-0.25-captured.json');
    (body.alerts as Record<string, unknown>[])[1]!.status = 'resolved';
    const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'en' }) as Extract<AdapterResult, { kind: 'alert' }>;
    expect(r.texts).toEqual(['Instance Down. db1 is down. db1:9100.', 'Disk Full. Disk on web2 is 95% full. web2:9100.']);
  });

  it('a known shape with nothing to say gives no text (the intake then answers Missing fields)', () => {
    const body = { version: '4', groupKey: '{}:{}', status: 'firing', alerts: [{ status: 'firing', labels: {}, annotations: {} }] };
    const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'tr' }) as Extract<AdapterResult, { kind: 'alert' }>;
    expect(r.texts).toEqual([]);
    expect(asWebhookFields(r, body, 'tr').error_message).toBeUndefined();
  });
});

describe('Grafana (docs payload)', () => {
  it('firing: each alert with its summary, counted; key = groupKey', () => {
    expect(read('grafana-firing.grafana-docs-webhook-notifier.json', { language: 'en' }).fields).toEqual({
      source: 'grafana',
      alert_key: '{}:{}',
      error_message:
        '2 alerts. First: High memory usage. This alert was triggered for zone us-1. Second: High CPU usage. This alert was triggered for zone eu-1.',
    });
  });
  it('resolved: status resolved', () => {
    expect(read('grafana-resolved.grafana-docs-webhook-notifier.json').fields?.status).toBe('resolved');
  });
  it('an alert without a summary is read from its labels', () => {
    const body = fixture('grafana-firing.grafana-docs-webhook-notifier.json');
    const alerts = body.alerts as Record<string, Record<string, unknown>>[];
    body.alerts = [{ ...alerts[0], annotations: {} }];
    const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'en' }) as Extract<AdapterResult, { kind: 'alert' }>;
    expect(r.texts).toEqual(['alertname High memory usage, team blue, zone us-1.']);
  });
});

describe('SNS (AWS docs payloads)', () => {
  it('SubscriptionConfirmation gives the SubscribeURL to confirm', () => {
    const { result } = read('sns-subscription-confirmation.aws-docs.json');
    expect(result).toMatchObject({ kind: 'sns_confirmation', topicArn: 'arn:aws:sns:us-west-2:123456789012:MyTopic' });
    expect((result as { subscribeUrl: string }).subscribeUrl).toMatch(/^https:\/\/sns\.us-west-2\.amazonaws\.com\/\?Action=ConfirmSubscription/);
  });
  it('a CloudWatch alarm: AlarmName and NewStateReason, key AlarmArn', () => {
    expect(read('sns-cloudwatch-alarm.aws-lambda-go-testdata.json').fields).toEqual({
      source: 'sns',
      alert_key: 'arn:aws:cloudwatch:REGION:ACCOUNT_NUMBER:alarm:EXAMPLE',
      error_message:
        'EXAMPLE. Threshold Crossed: 1 out of the last 1 datapoints [1234.0 (06/03/15 17:43:27)] was greater than the threshold (0.0) (minimum 1 datapoint for OK -> ALARM transition).',
    });
  });
  it('NewStateValue OK resolves the alarm', () => {
    expect(read('sns-cloudwatch-ok.aws-lambda-go-testdata.json').fields).toMatchObject({
      status: 'resolved',
      alert_key: 'arn:aws:cloudwatch:REGION:ACCOUNT_NUMBER:alarm:EXAMPLE',
    });
  });
  it('any other message: Subject and Message, no key', () => {
    const body = { ...fixture('sns-cloudwatch-alarm.aws-lambda-go-testdata.json'), Subject: 'Backup', Message: 'Nightly backup failed on db1' };
    const r = recogniseSource({ headers: snsHeaders(body), fields: body, query: {}, language: 'tr' });
    expect(r).toEqual({ kind: 'alert', source: 'sns', key: null, texts: ['Backup. Nightly backup failed on db1.'], resolved: false });
  });
});

describe('Azure Monitor (docs common alert schema sample)', () => {
  it('fired: rule, severity, condition and target in words; key = essentials.alertId', () => {
    expect(read('azure-fired.azure-docs-payload-samples.json', { language: 'en' }).fields).toEqual({
      source: 'azure',
      alert_key: '/subscriptions/<subscription ID>/providers/Microsoft.AlertsManagement/alerts/aaaa0a0a-bb1b-cc2c-dd3d-eeeeee4e4e4e',
      error_message: 'WCUS-R2-Gen2. Severity 3. Fired. wcus-r2-gen2.',
    });
    expect(read('azure-fired.azure-docs-payload-samples.json').fields?.error_message).toBe('WCUS-R2-Gen2. Önem derecesi 3. Tetiklendi. wcus-r2-gen2.');
  });
  it('monitorCondition Resolved resolves', () => {
    expect(read('azure-resolved.azure-docs-payload-samples.json').fields?.status).toBe('resolved');
  });
});

describe('Uptime Kuma (webhook provider body)', () => {
  it('down: msg made listenable; key names the monitor', () => {
    expect(read('uptime-kuma-down.webhook-provider.json').fields).toEqual({
      source: 'uptime-kuma',
      alert_key: 'uptime-kuma:29',
      error_message: 'Test. Down. getaddrinfo ENOTFOUND test.com.',
    });
  });
  it('heartbeat.status 1 (up) resolves', () => {
    expect(read('uptime-kuma-up.webhook-provider.json').fields).toMatchObject({ status: 'resolved', alert_key: 'uptime-kuma:29' });
  });
  it('reads the JSON of the multipart field `data` (form-data mode)', () => {
    const body = { data: JSON.stringify(fixture('uptime-kuma-down.webhook-provider.json')) };
    const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'tr' });
    expect(r).toMatchObject({ source: 'uptime-kuma', key: 'uptime-kuma:29', resolved: false });
  });
  it('listenable() drops emoji and brackets', () => {
    expect(listenable('[Web] [✅ Up] 200 - OK')).toBe('Web. Up. 200 - OK.');
  });
});

describe('recognition', () => {
  it('plain fields fall through (null), as do unknown shapes', () => {
    expect(recogniseSource({ headers: {}, fields: { phone_number: '5321234567', error_message: 'x' }, query: {}, language: 'tr' })).toBeNull();
    expect(recogniseSource({ headers: {}, fields: { version: '3', groupKey: 'g', alerts: [] }, query: {}, language: 'tr' })).toBeNull();
    expect(recogniseSource({ headers: {}, fields: { heartbeat: {} }, query: {}, language: 'tr' })).toBeNull();
  });

  it('?source=NAME forces an adapter on a body missing its recognising marks', () => {
    const body = fixture('alertmanager-firing.alertmanager-0.25-captured.json');
    delete body.version;
    expect(recogniseSource({ headers: {}, fields: body, query: {}, language: 'tr' })).toBeNull();
    expect(recogniseSource({ headers: {}, fields: body, query: { source: 'alertmanager' }, language: 'tr' })).toMatchObject({
      source: 'alertmanager',
      key: '{}:{job="mysql"}',
    });
  });

  it('an unknown ?source= name leaves the plain fields', () => {
    expect(recogniseSource({ headers: {}, fields: { error_message: 'x' }, query: { source: 'zabbix' }, language: 'tr' })).toBeNull();
  });

  it('numbers: the payload keeps the body phone_number; the query fills in when the body has none', () => {
    const r = read('uptime-kuma-down.webhook-provider.json').result as Extract<AdapterResult, { kind: 'alert' }>;
    expect(asWebhookFields(r, { phone_number: '5321234567' }, 'tr').phone_number).toBe('5321234567');
    expect(withQueryNumbers({ error_message: 'x' }, { to: '5321234567,5321234568' })).toEqual({ error_message: 'x', phone_number: '5321234567,5321234568' });
    expect(withQueryNumbers({ error_message: 'x' }, { phone_number: '5321234567' }).phone_number).toBe('5321234567');
    expect(withQueryNumbers({ phone_number: '5551112233' }, { to: '5321234567' }).phone_number).toBe('5551112233');
  });

  it('a key over 200 characters is hashed, stably', () => {
    const body = { ...fixture('alertmanager-firing.alertmanager-0.25-captured.json'), groupKey: `{}:{job="${'x'.repeat(300)}"}` };
    const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'tr' }) as Extract<AdapterResult, { kind: 'alert' }>;
    const key = asWebhookFields(r, body, 'tr').alert_key as string;
    expect(key).toMatch(/^alertmanager:sha256:[0-9a-f]{64}$/);
    expect(asWebhookFields(r, body, 'tr').alert_key).toBe(key);
  });

  it('counts a key in characters, not UTF-16 units: 200 characters stay as they are, 201 are hashed', () => {
    const keyOf = (groupKey: string) => {
      const body = { ...fixture('alertmanager-firing.alertmanager-0.25-captured.json'), groupKey };
      const r = recogniseSource({ headers: {}, fields: body, query: {}, language: 'tr' }) as Extract<AdapterResult, { kind: 'alert' }>;
      return asWebhookFields(r, body, 'tr').alert_key as string;
    };
    const wide = '🔥'.repeat(200); // 400 UTF-16 units, 200 characters
    expect(keyOf(wide)).toBe(wide);
    expect(keyOf(`${wide}x`)).toMatch(/^alertmanager:sha256:[0-9a-f]{64}$/);
    expect(keyOf('x'.repeat(200))).toBe('x'.repeat(200));
  });
});

describe('speech helpers', () => {
  it('cuts to 500 code points at a word, never refusing', () => {
    const long = 'ğ'.repeat(10) + ' word'.repeat(200);
    const cut = cutForSpeech(long);
    expect(Array.from(cut).length).toBeLessThanOrEqual(500);
    expect(cut.endsWith('…')).toBe(true);
    expect(cutForSpeech('short')).toBe('short');
  });
  it('reads rule names as words', () => {
    expect(nameAsWords('InstanceDown')).toBe('Instance Down');
    expect(nameAsWords('node_filesystem_full')).toBe('node filesystem full');
    expect(nameAsWords('HTTPProbeFailed')).toBe('HTTP Probe Failed');
  });
});
