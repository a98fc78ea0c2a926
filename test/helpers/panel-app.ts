import { tracked } from './open-stores';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpeech } from '../../src/appliance';
import { configSchema, type Config } from '../../src/config';
import { createHttpApp, createRateLimiter } from '../../src/http';
import type { HttpDeps } from '../../src/http/deps';
import { createPanelEnv, panelRoutes } from '../../src/http/panel';
import type { CallAudioSource } from '../../src/call-model';
import { silentLogger } from '../../src/log';
import { createPanelUsersService } from '../../src/panel';
import { createServices } from '../../src/services';
import { createStore } from '../../src/store';
import { trunkConfigured } from '../../src/config/sections/sip';
import { testStoreUrlAsync } from './postgres';

/**
 * The whole HTTP app in process (no binary) on a temporary database, for panel tests
 * through `app.handle(new Request('http://localhost/…'))`. `fetch` keeps cookies like a browser.
 */
export async function panelApp(
  panel: Partial<Config['panel']> = {},
  now = () => Date.now(),
  speech?: CallAudioSource,
  /** Other sections of the configuration, e.g. `{ sip: { server: '127.0.0.1:5060' } }`. */
  more: Record<string, unknown> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'va-panel-'));
  const config = configSchema.parse({ ...more, store: { path: join(dir, 'va.db') }, panel: { login_delay_ms: 0, ...panel } });
  // On the vitest project "postgres", a fresh PostgreSQL database (test/helpers/postgres.ts).
  const storeUrl = await testStoreUrlAsync();
  const store = tracked(await createStore({
    path: config.store.path,
    url: storeUrl,
    busyTimeoutMs: 1000,
    timeoutMs: config.store.timeout_ms,
    poolSize: config.store.pool_size,
    clock: now,
  }));
  // No telephony in process: the panel's test calls go by the configuration (sip.server or trunks).
  const services = createServices({ store, clock: now, config, trunkConfigured: () => trunkConfigured(config.sip) });
  const deps: HttpDeps = {
    store,
    clock: now,
    log: silentLogger(),
    config,
    intake: { store, clock: now, timeZone: config.credit.timezone, alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(0, now),
  };
  const app = createHttpApp(deps, [panelRoutes(createPanelEnv(deps, { speech: speech ?? createSpeech(config, deps.log) }))]);
  const users = createPanelUsersService(store, now);
  // storeUrl: for a test's own look at every table (appliance-database.ts), on PostgreSQL.
  return { app, store, config, users, deps, storeUrl };
}

/** The password the panel tests give their users (at least MIN_PASSWORD_LENGTH). */
export const TEST_PASSWORD = 'a-long-password-1';

/**
 * The usual start of an account page's test: two accounts (Acme `a`, Other `b`), Acme's owner
 * logged in as `owner`, and `page`, Acme's `/panel/a/<id>/<section>`.
 */
export async function acmeOwnerOn(ctx: Awaited<ReturnType<typeof panelApp>>, section: string) {
  const a = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Acme', plan: 'starter' }));
  const b = await ctx.store.transaction((tx) => tx.accounts.create({ name: 'Other', plan: 'starter' }));
  await ctx.users.createOwner(a.id, 'a@acme.test', TEST_PASSWORD);
  const owner = browser(ctx.app);
  await owner.login('a@acme.test', TEST_PASSWORD);
  return { ...ctx, a, b, owner, page: `/panel/a/${a.id}/${section}` };
}

/** A cookie jar for one "browser" over app.handle. */
export function browser(app: { handle(r: Request): Promise<Response> }) {
  const jar = new Map<string, string>();
  const request = async (path: string, init: RequestInit & { form?: Record<string, string> } = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    let body = init.body;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { ...init, headers, body, redirect: 'manual' }));
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      if (/Max-Age=0/.test(c)) jar.delete(k!);
      else jar.set(k!, v ?? '');
    }
    return res;
  };
  return {
    jar,
    get: (path: string) => request(path),
    post: (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      request(path, { method: 'POST', form, headers }),
    /** The hidden `_csrf` value of the page at `path`. */
    async csrf(path: string): Promise<string> {
      const html = await (await request(path)).text();
      const m = /name="_csrf" value="([^"]+)"/.exec(html);
      if (!m) throw new Error(`no CSRF field on ${path}`);
      return m[1]!;
    },
    async login(login: string, password: string) {
      const token = await this.csrf('/panel/login');
      return request('/panel/login', { method: 'POST', form: { _csrf: token, login, password } });
    },
  };
}
