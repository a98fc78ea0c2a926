import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpTestApp } from '../../test/helpers/http-app';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { callStatusOf } from '../outward';
import { configSchema } from '../config';
import { sign } from '../signing';
import type { Store } from '../store';

// GET /api/calls/:id goes through the same authenticate + authorize as the alert endpoints.
let clock: ReturnType<typeof manualClock>;
let store: Store;
let app: ReturnType<typeof httpTestApp>;

beforeEach(async () => {
  clock = manualClock();
  store = await tempStore(clock);
  const config = configSchema.parse({});
  app = httpTestApp(store, clock, { config });
});
afterEach(() => store.close());

async function accountWithCall(options: { requireSignature?: boolean } = {}) {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  const cred = await store.transaction((tx) => tx.credentials.create(acc.id, options));
  const [callId] = await store.transaction((tx) =>
    tx.calls.enqueue([{ accountId: acc.id, credentialId: cred.id, source: 'api', phoneNumber: '5321234567', message: 'Disk dolu' }], clock()),
  );
  return { accountId: acc.id, apiKey: cred.apiKey, apiSecret: cred.apiSecret, callId: callId! };
}

const get = (path: string, headers: Record<string, string> = {}) =>
  app.handle(new Request(`http://localhost${path}`, { headers })).then(async (r) => ({ status: r.status, json: await r.json() }));
const withSecret = (c: { apiKey: string; apiSecret: string }) => ({ 'x-api-key': c.apiKey, 'x-api-secret': c.apiSecret });
/** HMAC over `<timestamp>.<path>`: a GET has no body. */
const signed = (c: { apiKey: string; apiSecret: string }, path: string, at = clock()) => {
  const ts = String(Math.floor(at / 1000));
  return { 'x-api-key': c.apiKey, 'x-timestamp': ts, 'x-signature': sign(c.apiSecret, ts, new TextEncoder().encode(path)) };
};
const refusal = (status: number, message: string, code: string) => ({ status, json: { status: 'error', message, code } });

describe('GET /api/calls/:id', () => {
  it("answers the owner with the call's status, the same JSON as `calls show --json` builds", async () => {
    const c = await accountWithCall();
    const r = await get(`/api/calls/${c.callId}`, withSecret(c));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'success', message: 'Call found', call: await callStatusOf(store, c.callId) });
    expect(r.json.call).toMatchObject({ id: c.callId, state: 'queued', attempts: 0 });
  });

  it('signed instead of the secret: a valid signature over the path passes, a stale one is "Invalid signature"', async () => {
    const c = await accountWithCall();
    const path = `/api/calls/${c.callId}`;
    expect((await get(path, signed(c, path))).status).toBe(200);
    expect(await get(path, signed(c, path, clock() - 301_000))).toEqual(refusal(403, 'Invalid signature', 'invalid_signature'));
  });

  it('a set marked "signature required" is refused unsigned with 403 "Signature required", and answered signed', async () => {
    const c = await accountWithCall({ requireSignature: true });
    const path = `/api/calls/${c.callId}`;
    expect(await get(path, withSecret(c))).toEqual(refusal(403, 'Signature required', 'signature_required'));
    expect((await get(path, signed(c, path))).status).toBe(200);
  });

  it('no credentials 401, wrong secret or unknown key 403, another account\'s call 404 like a missing one', async () => {
    const c = await accountWithCall();
    const other = await accountWithCall();
    const path = `/api/calls/${c.callId}`;
    const missing = refusal(401, 'Missing API credentials (X-Api-Key with X-Api-Secret or X-Signature)', 'missing_api_credentials');
    expect(await get(path)).toEqual(missing);
    expect(await get(path, { 'x-api-key': c.apiKey })).toEqual(missing);
    const invalid = refusal(403, 'Invalid API credentials', 'invalid_api_credentials');
    expect(await get(path, { ...withSecret(c), 'x-api-secret': 'vas_wrong' })).toEqual(invalid);
    expect(await get(path, { ...withSecret(c), 'x-api-key': 'vak_unknown' })).toEqual(invalid);
    const notFound = refusal(404, 'Call not found', 'call_not_found');
    expect(await get(path, withSecret(other))).toEqual(notFound);
    expect(await get('/api/calls/call_nope', withSecret(c))).toEqual(notFound);
  });

  it('a disabled account has no API access here either: 403 with the plan message', async () => {
    const c = await accountWithCall();
    await store.transaction((tx) => tx.accounts.setDisabled(c.accountId, true));
    expect(await get(`/api/calls/${c.callId}`, withSecret(c))).toEqual(
      refusal(403, 'Your plan does not allow API/webhook access', 'plan_refused'),
    );
  });
});
