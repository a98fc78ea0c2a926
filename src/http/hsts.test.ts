import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import type { Store } from '../store';
import { createHttpApp } from './app';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

// docs/https.md "HTTPS": with http.hsts, Strict-Transport-Security on every answer sent over TLS
// (errors too), never on plain HTTP (RFC 6797 §7.2).
let store: Store;
afterEach(() => store?.close());

async function app(hsts: boolean) {
  const clock = manualClock();
  store = await tempStore(clock);
  const config = configSchema.parse({ http: { tls: 'self-signed', hsts } });
  const services = createServices({ store, clock, config });
  return createHttpApp({ store, clock, log: silentLogger(), config, intake: { store, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts }, services, rateLimiter: createRateLimiter(0, clock) });
}

describe('Strict-Transport-Security', () => {
  it('on HTTPS answers, errors included, when http.hsts is set', async () => {
    const a = await app(true);
    for (const path of ['/healthz', '/nowhere', '/panel']) {
      const res = await a.handle(new Request(`https://localhost${path}`));
      expect(res.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
    }
    const refused = await a.handle(new Request('https://localhost/webhook/receive', { method: 'POST', body: '{}' }));
    expect(refused.status).toBe(403); // no key: refused, and still over TLS
    expect(refused.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('never over plain HTTP, and not without http.hsts', async () => {
    expect((await (await app(true)).handle(new Request('http://localhost/healthz'))).headers.get('strict-transport-security')).toBeNull();
    await store.close();
    expect((await (await app(false)).handle(new Request('https://localhost/healthz'))).headers.get('strict-transport-security')).toBeNull();
  });
});
