import { Database } from 'bun:sqlite';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';

let dir: ApplianceDir;
let app: RunningAppliance;
let cred: ReturnType<typeof provision>;

beforeAll(async () => {
  dir = applianceDir({ http: { rate_limit_per_minute: 60 } });
  cred = provision(dir, 'enterprise', ['--monthly-credit', '1000']);
  app = await dir.start();
});
afterAll(() => app?.stop());

/** curl from a chosen loopback source address (fetch cannot pick one). */
function curlFrom(source: string, url: string, body: string): { status: number; retryAfter: string | null } {
  const out = execFileSync('curl', ['-s', '-o', '/dev/null', '-D', '-', '--interface', source, '-H', 'content-type: application/json', '--data-binary', body, url], {
    encoding: 'utf8',
  });
  const status = Number(/^HTTP\/[\d.]+ (\d+)/m.exec(out)![1]);
  const retry = /^retry-after: (\d+)/im.exec(out);
  return { status, retryAfter: retry ? retry[1]! : null };
}

describe('HTTP edges', () => {
  it('unknown path: 404 "Not found" as JSON', async () => {
    const r = await fetch(`${app.url}/nope`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await r.json()).toEqual({ status: 'error', message: 'Not found', code: 'not_found' });
  });

  it('known path, other method: 405 "Method not allowed" with Allow', async () => {
    for (const [method, path, allow] of [
      ['GET', '/api/call', 'POST'],
      ['PUT', '/webhook/receive', 'POST'],
      ['POST', '/healthz', 'GET'],
    ] as const) {
      const r = await fetch(`${app.url}${path}`, { method });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe(allow);
      expect(await r.json()).toEqual({ status: 'error', message: 'Method not allowed', code: 'method_not_allowed' });
    }
  });

  it('every answer carries X-Request-Id, echoing the client one', async () => {
    const echoed = await fetch(`${app.url}/nope`, { headers: { 'x-request-id': 'zbx-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('zbx-123');
    const made = await post(`${app.url}/api/call`, '{');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /healthz is 200 while the database takes a write and the disk has room, with its checks', async () => {
    const r = await fetch(`${app.url}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      status: 'success',
      message: 'ok',
      checks: { database: 'up', disk: 'up', trunk: 'none', queue: 0, oldest_queued_s: null },
    });
  });

  it('an unexpected failure is 500 "Internal error" with no SQL in the body, and the process keeps serving', async () => {
    const db = new Database(`${dir.dir}/data/voice-alert.db`);
    db.run('PRAGMA busy_timeout = 2000');
    db.run('ALTER TABLE usage RENAME TO usage_away'); // the store's queries now fail
    const url = `${app.url}/webhook/receive?key=${cred.webhookKey}`;
    const alert = { phone_number: '5321234567', error_message: 'x' };
    const r = await post(url, alert);
    expect(r.status).toBe(500);
    expect(r.json).toEqual({ status: 'error', message: 'Internal error', code: 'internal_error' });
    expect(JSON.stringify(r.json)).not.toMatch(/usage|sqlite|SELECT/i);
    expect(app.output()).toMatch(/request failed/); // logged for the operator
    db.run('ALTER TABLE usage_away RENAME TO usage');
    db.close();
    expect((await post(url, alert)).status).toBe(200);
  });

  it('the 61st request in a minute from one address is 429 with Retry-After; another address is unaffected', async () => {
    const url = `${app.url}/webhook/receive?key=${cred.webhookKey}`;
    const body = JSON.stringify({ phone_number: '5321234567', error_message: 'x' });
    // Both endpoints share one budget per address: 30 + 30, then the 61st.
    for (let i = 0; i < 30; i++) expect(curlFrom('127.0.0.3', url, body).status).toBe(200);
    for (let i = 0; i < 30; i++) expect(curlFrom('127.0.0.3', `${app.url}/api/call`, '{').status).toBe(400);
    const limited = curlFrom('127.0.0.3', url, body);
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    const r = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }); // from 127.0.0.1
    expect(r.status).toBe(200);
    expect(curlFrom('127.0.0.4', url, body).status).toBe(200);
    const again = await fetch(`${app.url}/nope`);
    expect(again.status).toBe(404); // other paths are not limited
  });
});

describe('behind a reverse proxy', () => {
  it('with http.trust_proxy the limit applies to the X-Forwarded-For address our proxy wrote', async () => {
    const d = applianceDir({ http: { rate_limit_per_minute: 2, trust_proxy: true } });
    const a = await d.start();
    try {
      const url = `${a.url}/api/call`;
      const from = (ip: string) => post(url, '{', { 'content-type': 'application/json', 'x-forwarded-for': `6.6.6.6, ${ip}` });
      expect((await from('10.1.1.1')).status).toBe(400);
      expect((await from('10.1.1.1')).status).toBe(400);
      const r = await from('10.1.1.1');
      expect(r.status).toBe(429);
      expect(r.json).toEqual({ status: 'error', message: 'Rate limit exceeded', code: 'rate_limited' });
      expect((await from('10.1.1.2')).status).toBe(400);
    } finally {
      await a.stop();
    }
  });
});
