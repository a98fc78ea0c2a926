import { Elysia } from 'elysia';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import { DatabaseUnavailableError, type Store } from '../store';
import { createHttpApp } from './app';
import type { HttpDeps } from './deps';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

// Every JSON error answer carries the catalogue's `code` beside the docs' status and
// message: each row that refuses of the two tables in docs/http-api.md (POST /api/call,
// POST /webhook/receive), and the edge's own answers.
let store: Store;
afterEach(() => store?.close());

async function app(ratePerMinute = 0) {
  const clock = manualClock();
  store = await tempStore(clock);
  return appOn(store, clock, ratePerMinute);
}

/** The app over `seen`: the store itself, or a test's stand-in for a database that does not answer. */
function appOn(seen: Store, clock: () => number, ratePerMinute = 0) {
  const config = configSchema.parse({ http: { rate_limit_per_minute: ratePerMinute } });
  const services = createServices({ store: seen, clock, config });
  const deps: HttpDeps = {
    store: seen,
    clock,
    log: silentLogger(),
    config,
    intake: { store: seen, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(ratePerMinute, clock),
  };
  // Typed loosely like the panel's feature: its route types are of no use to createHttpApp.
  const boom: Elysia<any> = new Elysia().get('/boom', () => {
    throw new Error('SELECT secret FROM nowhere');
  }) as any;
  return createHttpApp(deps, [boom]);
}

type App = ReturnType<typeof appOn>;

async function account(plan: 'free' | 'starter' = 'starter', monthlyCredit?: number) {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan, monthlyCredit }));
  const { apiKey, apiSecret, webhookKey } = await store.transaction((tx) => tx.credentials.create(acc.id));
  return { accountId: acc.id, apiKey, apiSecret, webhookKey };
}

const send = (a: App, path: string, init: RequestInit = {}) =>
  a.handle(new Request(`http://localhost${path}`, init)).then(async (r) => ({ status: r.status, json: await r.json() }));
const postJson = (a: App, path: string, body: unknown) =>
  send(a, path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });

type Cred = Awaited<ReturnType<typeof account>>;

const apiBody = (c: Cred, over: Record<string, unknown> = {}) => ({
  api_key: c.apiKey,
  api_secret: c.apiSecret,
  phone_number: '5321234567',
  error_message: 'Disk dolu',
  ...over,
});
const alert = (over: Record<string, unknown> = {}) => ({ phone_number: '5321234567', error_message: 'Disk dolu', ...over });

// The sixth column: extra fields beside status/message/code (docs/http-api.md: extra fields may
// be added).
const apiRows: [string, string, (c: Cred) => unknown, number, string, Record<string, unknown>?][] = [
  ['row 3', 'malformed_request', () => '[1]', 400, 'Malformed request'],
  ['row 4', 'missing_fields', (c) => apiBody(c, { error_message: ' ', api_key: '' }), 400, 'Missing fields', { missing: ['api_key', 'error_message'] }],
  ['row 5', 'invalid_api_credentials', (c) => apiBody(c, { api_secret: 'vas_wrong' }), 403, 'Invalid API credentials'],
  ['row 7', 'message_too_long', (c) => apiBody(c, { error_message: 'x'.repeat(501) }), 400, 'Message too long (max 500 characters)'],
  ['row 8', 'invalid_phone_number', (c) => apiBody(c, { phone_number: '123' }), 400, 'Invalid phone number'],
];

const hookRows: [string, string, () => unknown, number, string, Record<string, unknown>?][] = [
  ['row 5', 'malformed_request', () => '{', 400, 'Malformed request'],
  ['row 6', 'missing_fields', () => alert({ phone_number: '' }), 400, 'Missing fields', { missing: ['phone_number'] }],
  ['row 7', 'message_too_long', () => alert({ error_message: 'x'.repeat(501) }), 400, 'Message too long (max 500 characters)'],
  ['row 8', 'too_many_numbers', () => alert({ phone_number: Array.from({ length: 11 }, (_, i) => `53212345${10 + i}`) }), 400, 'Too many phone numbers (max 10)'],
  ['row 9', 'invalid_phone_number', () => alert({ phone_number: '5321234567, 12ab' }), 400, 'Invalid phone number: 12ab'],
];

/** docs/operations.md "Configuration" (`numbers.accept`): a refused number's answer names the accepted forms. */
const extraFor = (code: string) => (code === 'invalid_phone_number' ? { accepted: ['tr-mobile'] } : {});

describe('every JSON error answer carries its code', () => {
  it.each(apiRows)('POST /api/call %s: %s', async (_row, code, body, status, message, extra = {}) => {
    const a = await app();
    const r = await postJson(a, '/api/call', body(await account()));
    expect(r).toEqual({ status, json: { status: 'error', message, code, ...extraFor(code), ...extra } });
  });

  it.each(hookRows)('POST /webhook/receive %s: %s', async (_row, code, body, status, message, extra = {}) => {
    const a = await app();
    const c = await account();
    const r = await postJson(a, `/webhook/receive?key=${c.webhookKey}`, body());
    expect(r).toEqual({ status, json: { status: 'error', message, code, ...extraFor(code), ...extra } });
  });

  it('both endpoints: invalid webhook key, plan, signature, signature required, credit', async () => {
    const a = await app();
    const refusal = (code: string, status: number, message: string) => ({ status, json: { status: 'error', message, code } });
    expect(await postJson(a, '/webhook/receive?key=vwk_nope', alert())).toEqual(refusal('invalid_webhook_key', 403, 'Invalid webhook key'));
    const free = await account('free');
    const plan = refusal('plan_refused', 403, 'Your plan does not allow API/webhook access');
    expect(await postJson(a, '/api/call', apiBody(free))).toEqual(plan);
    expect(await postJson(a, `/webhook/receive?key=${free.webhookKey}`, alert())).toEqual(plan);
    const c = await account();
    const badSig = { 'x-timestamp': '1', 'x-signature': 'sha256=00' };
    const signed = (path: string, body: unknown) =>
      send(a, path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...badSig } });
    expect(await signed('/api/call', apiBody(c))).toEqual(refusal('invalid_signature', 403, 'Invalid signature'));
    expect(await signed(`/webhook/receive?key=${c.webhookKey}`, alert())).toEqual(refusal('invalid_signature', 403, 'Invalid signature'));
    const strict = await store.transaction((tx) => tx.credentials.create(c.accountId, { requireSignature: true }));
    const required = refusal('signature_required', 403, 'Signature required');
    expect(await postJson(a, '/api/call', apiBody({ ...c, apiKey: strict.apiKey, apiSecret: strict.apiSecret }))).toEqual(required);
    expect(await postJson(a, `/webhook/receive?key=${strict.webhookKey}`, alert())).toEqual(required);
    const poor = await account('starter', 1);
    const credit = refusal('insufficient_credit', 402, 'Insufficient call credit');
    expect((await postJson(a, '/api/call', apiBody(poor))).status).toBe(200);
    expect(await postJson(a, '/api/call', apiBody(poor))).toEqual(credit);
    expect(await postJson(a, `/webhook/receive?key=${poor.webhookKey}`, alert())).toEqual(credit);
  });

  it('the edge: 404, 405, 413, 429 and 500', async () => {
    const a = await app(1);
    expect(await send(a, '/nope')).toEqual({ status: 404, json: { status: 'error', message: 'Not found', code: 'not_found' } });
    expect(await send(a, '/api/call')).toEqual({ status: 405, json: { status: 'error', message: 'Method not allowed', code: 'method_not_allowed' } });
    expect(await send(a, '/boom')).toEqual({ status: 500, json: { status: 'error', message: 'Internal error', code: 'internal_error' } });
    const big = await postJson(a, '/api/call', { error_message: 'x'.repeat(70_000) });
    expect(big).toEqual({ status: 413, json: { status: 'error', message: 'Request body too large', code: 'body_too_large' } });
    expect(await postJson(a, '/api/call', '{')).toEqual({ status: 429, json: { status: 'error', message: 'Rate limit exceeded', code: 'rate_limited' } });
  });

  it('503 "Database unavailable" when the store gives up on the database (DatabaseUnavailableError), not a 500', async () => {
    await app();
    const c = await account();
    const gaveUp = () => Promise.reject(new DatabaseUnavailableError('no answer in time'));
    const unavailable = { status: 503, json: { status: 'error', message: 'Database unavailable', code: 'database_unavailable' } };
    // The request's unit of work (queue the call) gives up: both alert endpoints.
    const writes = appOn({ ...store, transaction: gaveUp }, manualClock());
    expect(await postJson(writes, '/api/call', apiBody(c))).toEqual(unavailable);
    expect(await postJson(writes, `/webhook/receive?key=${c.webhookKey}`, alert())).toEqual(unavailable);
    // A read gives up (the lookups' change marker): the read-and-act API answers alike.
    const reads = appOn({ ...store, changeMarker: gaveUp }, manualClock());
    expect(await send(reads, '/api/calls/call_x', { headers: { 'x-api-key': c.apiKey, 'x-api-secret': c.apiSecret } })).toEqual(unavailable);
    // The same store answering: the request goes through.
    expect((await postJson(appOn(store, manualClock()), '/api/call', apiBody(c))).status).toBe(200);
  });
});
