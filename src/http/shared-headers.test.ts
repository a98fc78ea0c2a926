import { Elysia } from 'elysia';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { createHttpApp } from './app';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

let store: Store;
afterEach(() => store?.close());

/**
 * The whole app (its onRequest sets the shared headers) with routes of our own beside it,
 * typed loosely like the panel's feature: their route types are of no use to createHttpApp.
 */
async function appWith(routes: unknown) {
  const clock = manualClock();
  store = await tempStore(clock);
  const config = configSchema.parse({ http: { tls: 'self-signed', hsts: true } });
  const services = createServices({ store, clock, config });
  return createHttpApp({ store, clock, log: silentLogger(), config, intake: { store, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts }, services, rateLimiter: createRateLimiter(0, clock) }, [routes as Elysia<any>]);
}

describe('the headers every answer shares', () => {
  it("go onto a route's own Response, which is answered as it is (not built again around its body)", async () => {
    const made: Response[] = [];
    const app = await appWith(new Elysia().post('/probe/json', () => (made[made.push(new Response('{"a":1}', { status: 202, headers: { 'content-type': 'application/json' } })) - 1])));
    const res = await app.handle(new Request('https://localhost/probe/json', { method: 'POST', headers: { 'x-request-id': 'req-1' } }));
    expect(res).toBe(made[0]);
    expect(res.status).toBe(202);
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('{"a":1}');
  });

  it("leave a header the route set itself as it is, as Elysia's own merge does", async () => {
    const app = await appWith(new Elysia().get('/probe/own', () => new Response('x', { headers: { 'x-request-id': 'the-route-s' } })));
    const res = await app.handle(new Request('https://localhost/probe/own', { headers: { 'x-request-id': 'req-2' } }));
    expect(res.headers.get('x-request-id')).toBe('the-route-s');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('reach answers that cannot take them in place through Elysia: immutable headers, cookies, values that are not a Response', async () => {
    const app = await appWith(
      new Elysia()
        .get('/probe/redirect', () => Response.redirect('https://localhost/elsewhere', 302))
        .get('/probe/cookie', ({ set }) => {
          set.headers['set-cookie'] = 'a=1; Path=/';
          return new Response('with a cookie');
        })
        .get('/probe/text', () => 'plain text'),
    );
    for (const path of ['/probe/redirect', '/probe/cookie', '/probe/text']) {
      const res = await app.handle(new Request(`https://localhost${path}`, { headers: { 'x-request-id': 'req-3' } }));
      expect(res.headers.get('x-request-id'), path).toBe('req-3');
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
    }
    const redirected = await app.handle(new Request('https://localhost/probe/redirect'));
    expect([redirected.status, redirected.headers.get('location')]).toEqual([302, 'https://localhost/elsewhere']);
    expect((await app.handle(new Request('https://localhost/probe/cookie'))).headers.get('set-cookie')).toBe('a=1; Path=/');
    expect(await (await app.handle(new Request('https://localhost/probe/text'))).text()).toBe('plain text');
  });
});
