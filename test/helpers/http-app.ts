import { configSchema, type Config } from '../../src/config';
import { createHttpApp } from '../../src/http/app';
import { createRateLimiter } from '../../src/http/rate-limit';
import type { IntakeDeps } from '../../src/intake';
import { silentLogger } from '../../src/log';
import type { Store } from '../../src/store';

/**
 * The HTTP app over a test store, as the appliance builds it without telephony: no rate limit,
 * credit in Europe/Istanbul, the default configuration unless one is given.
 */
export function httpTestApp(store: Store, clock: () => number, o: { config?: Config; intake?: Partial<IntakeDeps> } = {}) {
  return createHttpApp({
    store,
    clock,
    log: silentLogger(),
    config: o.config ?? configSchema.parse({}),
    intake: { store, clock, timeZone: 'Europe/Istanbul', ...o.intake },
    rateLimiter: createRateLimiter(0, clock),
  });
}
