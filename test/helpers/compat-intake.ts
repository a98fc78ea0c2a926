import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Store } from '../../src/store';
import { httpTestApp } from './http-app';
import { manualClock, tempStore } from './memory-store';

/**
 * The PagerDuty/Opsgenie-compatible intake (docs/integrations.md "PagerDuty and Opsgenie compatible
 * intake") over the HTTP app, for the suites in src/http/compat-*.test.ts: a fresh store, app and
 * starter account per test (registered as beforeEach/afterEach), the requests, and what they
 * left in the store. `rig.store`, `rig.clock`, `rig.acc` are the current test's.
 */
export interface CompatAnswer {
  status: number;
  json: Record<string, any>;
  text: string;
  requestId: string | null;
  headers: Headers;
}

export type CompatAccount = { id: string; webhookKey: string; credentialId: string };

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'compat');
/** A captured or documented body from test/fixtures/compat. */
export const compatFixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

export function compatRig() {
  let app: ReturnType<typeof httpTestApp>;
  const rig = {
    clock: null as unknown as ReturnType<typeof manualClock>,
    store: null as unknown as Store,
    acc: null as unknown as CompatAccount,
    async account(plan: 'free' | 'starter', monthlyCredit: number | null = null): Promise<CompatAccount> {
      const a = await rig.store.transaction((tx) => tx.accounts.create({ name: 't', plan, monthlyCredit }));
      const c = await rig.store.transaction((tx) => tx.credentials.create(a.id));
      const credentialId = (await rig.store.credentials.listForAccount(a.id))[0]!.id;
      return { id: a.id, webhookKey: c.webhookKey, credentialId };
    },
    /** One request; every answer of both APIs is JSON. */
    async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<CompatAnswer> {
      const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const r = await app.handle(new Request(`http://localhost${path}`, init));
      const text = await r.text();
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      return { status: r.status, json: JSON.parse(text), text, requestId: r.headers.get('x-request-id'), headers: r.headers };
    },
    alerts: () => rig.store.alerts.list({ accountId: rig.acc.id, limit: 100 }),
    callsOf: (alertId: string) => rig.store.calls.ofAlert(alertId),
    used: () => rig.store.usage.usedIn(rig.acc.id, '2026-11'),
  };
  beforeEach(async () => {
    rig.clock = manualClock();
    rig.store = await tempStore(rig.clock);
    app = httpTestApp(rig.store, rig.clock, { intake: { dedupeWindowS: 900 } });
    rig.acc = await rig.account('starter');
  });
  afterEach(() => rig.store.close());
  return rig;
}
