import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/signing';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { FORM, form, post, turkishText } from '../helpers/http';

// docs/http-api.md "POST /webhook/receive — …": every row of its table, in order, against the
// compiled binary.
let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;
const hook = (key = cred.webhookKey) => `${app.url}/webhook/receive?key=${encodeURIComponent(key)}`;
const alert = (over: Record<string, unknown> = {}) => ({ phone_number: '5321234567', error_message: 'Disk dolu', ...over });
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `53212345${String(i).padStart(2, '0')}`);
const storedMessages = async (ids: string[]) => {
  const db = dir.database();
  const rows: string[] = [];
  for (const id of ids) rows.push(((await db.query('SELECT message FROM calls WHERE id = ?').get(id)) as { message: string }).message);
  await db.close();
  return rows;
};

beforeAll(async () => {
  dir = applianceDir();
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

describe('POST /webhook/receive', () => {
  it('row 11: queues one call per number, "<n> call(s) queued" with the ids', async () => {
    const r = await post(hook(), alert({ phone_number: '5321234567, 5321234568' }));
    expect(r.status).toBe(200);
    // No trunk in this suite: the extra `warning` (docs/operations.md "No trunk yet") says the calls
    // wait.
    expect(r.json).toEqual({ status: 'success', message: '2 call(s) queued', call_ids: [expect.any(String), expect.any(String)], warning: 'No SIP trunk configured: calls wait' });
  });

  it('takes the key from the X-Webhook-Key header; the header wins over the query', async () => {
    const url = `${app.url}/webhook/receive`;
    expect((await post(url, alert(), { 'x-webhook-key': cred.webhookKey })).status).toBe(200);
    expect((await post(`${url}?key=vwk_wrong`, alert(), { 'x-webhook-key': cred.webhookKey })).status).toBe(200);
    const r = await post(`${url}?key=${cred.webhookKey}`, alert(), { 'x-webhook-key': 'vwk_wrong' });
    expect(r.json.message).toBe('Invalid webhook key');
  });

  it('row 2: a 1 MB body is 413 "Request body too large"', async () => {
    const r = await post(hook(), alert({ error_message: 'x'.repeat(1024 * 1024) }));
    expect(r).toMatchObject({ status: 413, json: { status: 'error', message: 'Request body too large', code: 'body_too_large' } });
  });

  it('row 3: a missing, unknown or revoked key is 403 "Invalid webhook key" (before the body is read)', async () => {
    const none = await post(`${app.url}/webhook/receive`, '{not json', { 'content-type': 'application/json' });
    expect(none).toMatchObject({ status: 403, json: { status: 'error', message: 'Invalid webhook key', code: 'invalid_webhook_key' } });
    expect((await post(hook('vwk_unknown'), alert())).json.message).toBe('Invalid webhook key');
    const other = provision(dir, 'starter');
    dir.cliJson(['keys', 'revoke', other.apiKey]);
    expect(await post(hook(other.webhookKey), alert())).toMatchObject({ status: 403, json: { message: 'Invalid webhook key' } });
  });

  it('row 4: a Free plan is 403 with the plan message (before the body is read)', async () => {
    const free = provision(dir, 'free');
    const r = await post(hook(free.webhookKey), 'garbage', { 'content-type': 'application/json' });
    expect(r).toMatchObject({ status: 403, json: { message: 'Your plan does not allow API/webhook access' } });
  });

  it.each([
    ['an empty body', '', 'application/json'],
    ['a JSON array', '[{"phone_number":"5321234567"}]', 'application/json'],
    ['text/plain that is not JSON', 'disk full on sw1', 'text/plain'],
    ['XML under a wrong content type', '<alert>x</alert>', 'application/xml'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'application/json'],
  ])('row 5: %s is 400 "Malformed request"', async (_n, raw, ct) => {
    const r = await post(hook(), raw, { 'content-type': ct });
    expect(r).toMatchObject({ status: 400, json: { status: 'error', message: 'Malformed request', code: 'malformed_request' } });
  });

  it('row 6: phone_number or error_message absent or empty is 400 "Missing fields"', async () => {
    for (const b of [{ error_message: 'x' }, { phone_number: '5321234567' }, alert({ phone_number: ' , ' }), alert({ phone_number: [] }), alert({ error_message: ' ' })]) {
      expect(await post(hook(), b)).toMatchObject({ status: 400, json: { status: 'error', message: 'Missing fields', code: 'missing_fields' } });
    }
  });

  it('row 7: 500 Turkish characters accepted, 501 refused', async () => {
    expect((await post(hook(), alert({ error_message: turkishText(500) }))).status).toBe(200);
    const r = await post(hook(), alert({ error_message: turkishText(501) }));
    expect(r).toMatchObject({ status: 400, json: { message: 'Message too long (max 500 characters)' } });
  });

  it('row 8: 10 numbers accepted, 11 refused; duplicates (in any written form) collapse first', async () => {
    const ten = await post(hook(), alert({ phone_number: numbers(10).join(',') }));
    expect(ten.json.message).toBe('10 call(s) queued');
    const eleven = await post(hook(), alert({ phone_number: numbers(11).join(',') }));
    expect(eleven).toMatchObject({ status: 400, json: { status: 'error', message: 'Too many phone numbers (max 10)', code: 'too_many_numbers' } });
    const dupes = [...numbers(10), '+90' + numbers(1)[0], '0' + numbers(2)[1], numbers(3)[2]];
    const r = await post(hook(), alert({ phone_number: dupes }));
    expect(r).toMatchObject({ status: 200, json: { message: '10 call(s) queued' } });
  });

  it('row 9: an invalid number is 400 "Invalid phone number: <the value as sent>"', async () => {
    const r = await post(hook(), alert({ phone_number: '5321234567, 0212 123 45 67' }));
    expect(r).toMatchObject({ status: 400, json: { status: 'error', message: 'Invalid phone number: 0212 123 45 67', code: 'invalid_phone_number' } });
  });

  it('row 10: a 10-number alert with 9 credits left is 402; nothing is charged or queued', async () => {
    const s = provision(dir, 'starter', ['--monthly-credit', '9']);
    const r = await post(hook(s.webhookKey), alert({ phone_number: numbers(10).join(',') }));
    expect(r).toMatchObject({ status: 402, json: { status: 'error', message: 'Insufficient call credit', code: 'insufficient_credit' } });
    expect(dir.cliJson(['credit', 'show', s.accountId])).toMatchObject({ used: 0, remaining: 9 });
    expect(dir.cliJson(['calls', 'list', '--account', s.accountId])).toEqual([]);
  });

  it('accepts the three content types with Turkish text intact', async () => {
    const text = 'Sunucu çöktü: ığüşöç İĞÜŞÖÇ';
    const json = await post(hook(), alert({ error_message: text }));
    const asForm = await post(hook(), form({ phone_number: '5321234567', error_message: text }), FORM);
    const asText = await post(hook(), JSON.stringify(alert({ error_message: text })), { 'content-type': 'text/plain; charset=utf-8' });
    const noType = await post(hook(), new TextEncoder().encode(JSON.stringify(alert({ error_message: text }))));
    const ids = [json, asForm, asText, noType].map((r) => {
      expect(r.status).toBe(200);
      return r.json.call_ids[0];
    });
    expect(await storedMessages(ids)).toEqual([text, text, text, text]);
  });

  it('signed with the webhook key: valid passes, wrong and expired are 403 "Invalid signature"', async () => {
    const raw = JSON.stringify(alert());
    const bytes = new TextEncoder().encode(raw);
    const now = Math.floor(Date.now() / 1000);
    const h = (ts: number, key = cred.webhookKey) => ({
      'content-type': 'application/json',
      'x-timestamp': String(ts),
      'x-signature': sign(key, String(ts), bytes),
    });
    expect((await post(hook(), raw, h(now))).status).toBe(200);
    expect(await post(hook(), raw, h(now, 'other'))).toMatchObject({ status: 403, json: { message: 'Invalid signature' } });
    expect(await post(hook(), raw, h(now - 400))).toMatchObject({ status: 403, json: { message: 'Invalid signature' } });
    const tampered = JSON.stringify(alert({ phone_number: '5559998877' }));
    expect((await post(hook(), tampered, h(now))).json.message).toBe('Invalid signature');
  });

  it('a retried delivery with the same Idempotency-Key is replayed and queues nothing', async () => {
    const s = provision(dir, 'starter');
    const b = alert({ phone_number: '5321234567,5321234568' });
    const first = await post(hook(s.webhookKey), b, { 'idempotency-key': 'prtg-1' });
    const retries = await Promise.all([1, 2, 3].map(() => post(hook(s.webhookKey), b, { 'idempotency-key': 'prtg-1' })));
    for (const r of retries) {
      expect(r.json).toEqual(first.json);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(dir.cliJson(['credit', 'show', s.accountId]).used).toBe(2);
  });
});
