import { configSchema, type Config } from '../../src/config';
import { createHttpApp } from '../../src/http/app';
import { createRateLimiter } from '../../src/http/rate-limit';
import type { IntakeDeps } from '../../src/intake';
import { silentLogger } from '../../src/log';
import { createServices } from '../../src/services';
import type { Store } from '../../src/store';

/**
 * The HTTP app over a test store, as the appliance builds it without telephony: no rate limit,
 * credit in Europe/Istanbul, the default configuration unless one is given.
 */
export function httpTestApp(store: Store, clock: () => number, o: { config?: Config; intake?: Partial<IntakeDeps> } = {}) {
  const config = o.config ?? configSchema.parse({});
  const services = createServices({ store, clock, config });
  return createHttpApp({
    store,
    clock,
    log: silentLogger(),
    config,
    intake: { store, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts, ...o.intake },
    services,
    rateLimiter: createRateLimiter(0, clock),
  });
}
