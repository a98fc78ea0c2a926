import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import { createServices } from '../services';
import type { Store } from '../store';
import { createImportService, OPSGENIE_EU, OPSGENIE_US, PAGERDUTY_API, SourceError, sourceApiUrl } from '.';
import { sourceHttp } from './source-http';

// src/importers/run.ts: the one import the CLI and the panel run (docs/panel.md "Import").
describe('sourceApiUrl: where the source is read', () => {
  it("the given URL (the CLI's --api-url, an administrator's), else Opsgenie's host of the region (US by default), else PagerDuty's", () => {
    expect(sourceApiUrl('opsgenie')).toBe(OPSGENIE_US);
    expect(sourceApiUrl('opsgenie', { region: 'eu' })).toBe(OPSGENIE_EU);
    expect(sourceApiUrl('pagerduty', { region: 'eu' })).toBe(PAGERDUTY_API);
    expect(sourceApiUrl('opsgenie', { region: 'eu', apiUrl: ' http://127.0.0.1:9000/ ' })).toBe('http://127.0.0.1:9000');
    expect(sourceApiUrl('pagerduty', { apiUrl: 'file:///etc/passwd' })).toBeNull();
    expect(sourceApiUrl('pagerduty', { apiUrl: 'not a url' })).toBeNull();
  });
});

describe('the import service', () => {
  let store: Store;
  const clock = manualClock('2026-11-15T12:00:00Z');
  beforeEach(async () => {
    store = await tempStore(clock);
  });
  afterEach(() => store.close());

  it('a source that echoes the key back in its refusal never gets it shown; no key is refused before anything is fetched', async () => {
    const key = 'sekret-echoed-4242';
    let fetched = 0;
    const echo = (async (_url: URL, init: RequestInit) => {
      fetched++;
      const auth = new Headers(init.headers).get('authorization');
      return Response.json({ message: `bad credentials: ${auth}` }, { status: 401 });
    }) as unknown as typeof fetch;
    const config = configSchema.parse({});
    const { imports } = createServices({ store, clock, config });
    const acc = (await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }))).id;
    const request = { source: 'opsgenie' as const, account: acc, key, apiUrl: 'http://127.0.0.1:1', applianceUrl: 'http://x', apply: true, check: false };
    // The registry's own service does not take a fetch: this one is built as the registry builds it, with one.
    const withEcho = createImportService({ store, clock, numberForms: config.numbers.accept, schedules: createServices({ store, clock, config }).schedules, servicesOn: (s) => createServices({ store: s, clock, config }), fetch: echo });
    const r = await withEcho.run(request);
    expect(r).toEqual({ ok: false, code: 'source_failed', message: 'Opsgenie answered 401: bad credentials: GenieKey … (GET /v2/users)', status: 401, applied: false });
    expect(fetched).toBe(1);
    expect(await imports.run({ ...request, key: '  ' })).toMatchObject({ ok: false, code: 'no_key' });
    expect(await store.importRuns.ofAccount(acc)).toEqual([]);
  });
});

describe('sourceHttp', () => {
  it('a source that takes the request and never answers is unreachable after timeoutMs, a SourceError, never a hang', async () => {
    const hang = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) });
    try {
      const http = sourceHttp({ source: 'Opsgenie', baseUrl: `http://127.0.0.1:${hang.port}`, headers: {}, timeoutMs: 200 });
      const e = await http.get('/v2/users').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SourceError);
      expect((e as SourceError).message).toMatch(new RegExp(`^Opsgenie could not be reached at http://127\\.0\\.0\\.1:${hang.port}: `));
      expect((e as SourceError).status).toBeNull();
    } finally {
      hang.stop(true);
    }
  });
});
