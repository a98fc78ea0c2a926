import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openApplianceDatabase } from '../../../test/helpers/appliance-database';
import { OPSGENIE_KEY, startOpsgenieStandIn, type StandIn } from '../../../test/helpers/opsgenie-standin';
import { acmeOwnerOn, browser, panelApp, TEST_PASSWORD } from '../../../test/helpers/panel-app';
import { PAGERDUTY_TOKEN, startPagerDutyStandIn } from '../../../test/helpers/pagerduty-standin';
import { until } from '../../../test/helpers/until';
import type { ImportCheck, ImportPlan } from '../../importers';
import { createLogger } from '../../log';

// docs/panel.md "Import" (issue 47 §3, "the panel shows the last import's plan and check"):
// each source's last applied plan and last check, as `voice-alert import … --json` printed them.
const PLAN: ImportPlan = {
  source: 'opsgenie',
  account: 'acc_x',
  objects: [
    { kind: 'person', action: 'create', name: 'Ayşe Yılmaz', source_id: 'u-ayse', phones: ['5321111111'], sms: [], emails: [], language: 'tr', time_zone: null, skipped_numbers: [] },
    { kind: 'schedule', action: 'unchanged', name: 'noc', source_id: 's-noc', time_zone: 'Europe/Istanbul', layers: [], overrides: [] },
    { kind: 'schedule', action: 'skip', name: 'noc-backup', source_id: 's-b', why: 'a schedule named noc-backup already exists here and was not imported: objects made by hand are never touched', time_zone: 'UTC', layers: [], overrides: [] },
    { kind: 'rotation', action: 'skip', name: 'team <b>rota</b>', source_id: 's-noc/r-2', of: 'noc', why: 'a team participant with no members' },
  ],
  integrations: [
    { name: 'Prometheus', type: 'Prometheus', url: 'https://alerts.example.com/v2/alerts', key: "the account's webhook key" },
    { name: 'Email', type: 'Email', url: null, key: '', why: 'e-mail integrations cannot be moved' },
  ],
};
const CHECK: ImportCheck = {
  source: 'opsgenie',
  account: 'acc_x',
  from: '2026-10-30T13:00:00.000Z',
  to: '2026-11-13T13:00:00.000Z',
  schedules: [
    { schedule: 'noc', disagreements: [{ from: '2026-11-02T15:00:00.000Z', to: '2026-11-02T17:30:00.000Z', theirs: 'Cem Demir', ours: null }] },
    { schedule: 'simple', disagreements: [] },
  ],
};

describe('panel: Import', () => {
  test('nothing imported: says so and how the CLI does it', async () => {
    const { owner, page, a } = await acmeOwnerOn(await panelApp({ language: 'en' }), 'import');
    const html = await (await owner.get(page)).text();
    expect(html).toContain(`href="/panel/a/${a.id}/import" aria-current="page"`);
    expect(html).toContain('data-testid="no-import">Nothing imported into this account yet.');
    expect(html).toContain(`voice-alert import opsgenie ${a.id} --apply`);
  });

  test('the last applied plan (every object, its action and why, the integrations) and the last check with its disagreements; another account sees none of it', async () => {
    const { owner, page, a, b, store } = await acmeOwnerOn(await panelApp({ language: 'en' }), 'import');
    const applied = Date.parse('2026-10-30T10:00:00Z');
    await store.transaction(async (tx) => {
      await tx.importRuns.recordApplied(a.id, 'opsgenie', JSON.stringify(PLAN), applied);
      await tx.importRuns.recordCheck(a.id, 'opsgenie', JSON.stringify(CHECK), applied + 60_000);
      await tx.importRuns.recordCheck(a.id, 'pagerduty', JSON.stringify({ ...CHECK, source: 'pagerduty', schedules: [{ schedule: 'ops', why: 'not imported yet: apply the import first (--apply, or Apply in the panel)', disagreements: [] }] }), applied - 60_000);
    });
    const html = await (await owner.get(page)).text();
    // The source used last first; PagerDuty was only checked.
    expect(html.indexOf('data-import-source="opsgenie"')).toBeLessThan(html.indexOf('data-import-source="pagerduty"'));
    const og = /<section class="card" data-import-source="opsgenie"[\s\S]*?<\/section>/.exec(html)![0];
    expect(og).toContain('data-testid="import-summary">Summary: create 1, unchanged 1, skip 2</p>');
    const rows = [...og.matchAll(/<tr data-action="(\w+)" data-kind="(\w+)">[\s\S]*?<td data-label="Name">([^<]*)<\/td><td data-label="Why \/ notes">([^<]*)<\/td>/g)].map((m) => m.slice(1));
    expect(rows).toEqual([
      ['create', 'person', 'Ayşe Yılmaz', '—'],
      ['unchanged', 'schedule', 'noc', '—'],
      ['skip', 'schedule', 'noc-backup', 'a schedule named noc-backup already exists here and was not imported: objects made by hand are never touched'],
      ['skip', 'rotation', 'team &lt;b&gt;rota&lt;/b&gt; (of noc)', 'a team participant with no members'],
    ]);
    expect(og).toContain('<li>Prometheus (Prometheus): https://alerts.example.com/v2/alerts</li>');
    expect(og).toContain('<li>Email (Email): not taken: e-mail integrations cannot be moved</li>');
    expect(og).toMatch(/<li data-schedule="noc" data-agrees="false"><strong>noc<\/strong><span>: 1 disagreement\(s\)<\/span><ul><li>[^<]+ – [^<]+: theirs Cem Demir, ours nobody<\/li><\/ul><\/li>/);
    expect(og).toContain('<li data-schedule="simple" data-agrees="true"><strong>simple</strong><span>: agrees</span>');
    const pd = /<section class="card" data-import-source="pagerduty"[\s\S]*?<\/section>/.exec(html)![0];
    expect(pd).toContain('Never applied (checked only).');
    expect(pd).toContain('<span>: not imported yet: apply the import first (--apply, or Apply in the panel)</span>');

    // A later --apply replaces the plan and keeps the check.
    await store.transaction((tx) => tx.importRuns.recordApplied(a.id, 'opsgenie', JSON.stringify({ ...PLAN, objects: PLAN.objects.slice(0, 1) }), applied + 120_000));
    const again = await (await owner.get(page)).text();
    expect(again).toContain('Summary: create 1</p>');
    expect(again).toContain('theirs Cem Demir, ours nobody');

    // Another account's import is its own: not on this page, and its page is not this owner's.
    await store.transaction((tx) => tx.importRuns.recordApplied(b.id, 'pagerduty', JSON.stringify({ ...PLAN, source: 'pagerduty', objects: [{ ...PLAN.objects[0]!, name: 'Gizli Kişi' }] }), applied + 180_000));
    expect(await (await owner.get(page)).text()).not.toContain('Gizli Kişi');
    expect((await owner.get(`/panel/a/${b.id}/import`)).status).toBe(404);
  });
});

// docs/panel.md "Import" (issue 49 §2, the panel and the CLI equal): the form runs the CLI's own
// import (src/importers/run.ts) against the stand-in APIs on 127.0.0.1, reached by the API URL
// an administrator may type (as the CLI's --api-url). The key is typed for one request and is
// never rendered, logged or stored.
describe('panel: Import, run from the form', () => {
  const WRONG_KEY = 'wrong-key-7f3a9c-never-shown';
  let opsgenie: StandIn;
  let pagerduty: StandIn;
  beforeAll(() => {
    opsgenie = startOpsgenieStandIn();
    pagerduty = startPagerDutyStandIn();
  });
  afterAll(() => {
    opsgenie.stop();
    pagerduty.stop();
  });

  /** Acme (owner logged in) and an administrator logged in too; every log line captured. */
  async function setUp(now?: () => number) {
    const ctx = await acmeOwnerOn(await panelApp({ language: 'en' }, now), 'import');
    const logs: string[] = [];
    ctx.deps.log = createLogger('trace', { write: (line: string) => void logs.push(line) });
    await ctx.users.createAdmin('admin', TEST_PASSWORD);
    const admin = browser(ctx.app);
    await admin.login('admin', TEST_PASSWORD);
    const csrf = await admin.csrf(ctx.page);
    const post = (form: Record<string, string>) => admin.post(ctx.page, { _csrf: csrf, ...form });
    return { ...ctx, logs, admin, post };
  }

  /** Every row of every table, as text (and on SQLite the file's own bytes): where a key must not be. */
  async function everythingStored(ctx: { store: { flush(): Promise<void> }; config: { store: { path: string } }; storeUrl?: string }): Promise<string> {
    await ctx.store.flush();
    const db = openApplianceDatabase({ path: ctx.config.store.path, ...(ctx.storeUrl ? { url: ctx.storeUrl } : {}) });
    try {
      const tables = (await db
        .query(db.dialect === 'sqlite' ? "SELECT name FROM sqlite_master WHERE type = 'table'" : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()')
        .all()) as { name: string }[];
      expect(tables.map((t) => t.name)).toContain('import_runs');
      const text = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : typeof v === 'bigint' ? String(v) : JSON.stringify(v));
      const rows = [];
      for (const t of tables) for (const row of (await db.query(`SELECT * FROM "${t.name}"`).all()) as Record<string, unknown>[]) rows.push(Object.values(row).map(text).join('\t'));
      const files = db.dialect === 'sqlite' ? [ctx.config.store.path, `${ctx.config.store.path}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')) : [];
      return [...rows, ...files].join('\n');
    } finally {
      await db.close();
    }
  }

  test('the form: source, a password field for the key (never filled), the region; another API URL for administrators only; CSRF', async () => {
    const { owner, page, admin, post, b } = await setUp();
    const html = await (await owner.get(page)).text();
    const form = /<form method="post" action="[^"]+" data-testid="import-form">[\s\S]*?<\/form>/.exec(html)![0];
    expect(form).toContain('<input type="hidden" name="_csrf"');
    expect(form).toContain('<option value="opsgenie" selected>Opsgenie</option><option value="pagerduty">PagerDuty</option>');
    expect(form).toMatch(/<input id="import-key" type="password" name="key" required autocomplete="off" maxlength="500" aria-describedby="import-key-hint"\/?>/);
    expect(form).toContain('<option value="eu">EU (api.eu.opsgenie.com)</option>');
    expect(form).not.toContain('name="api_url"');
    expect(form).toContain('<button type="submit" name="do" value="plan">Plan</button>');
    expect(form).toContain('<button type="submit" name="do" value="check" class="secondary">Check</button>');
    expect(await (await admin.get(page)).text()).toContain('<input id="import-api-url" type="url" name="api_url"');

    // An owner may not point the appliance at another address: refused before anything is fetched.
    const before = opsgenie.requests.length;
    const csrf = await owner.csrf(page);
    const refused = await owner.post(page, { _csrf: csrf, source: 'opsgenie', key: OPSGENIE_KEY, region: 'us', api_url: opsgenie.url, do: 'plan' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Only an administrator can point the import at another API URL; choose the region instead.');
    // Without the CSRF token: 403, nothing run. Another account's page: 404.
    expect((await admin.post(page, { source: 'opsgenie', key: OPSGENIE_KEY, api_url: opsgenie.url, do: 'plan' })).status).toBe(403);
    expect((await owner.post(`/panel/a/${b.id}/import`, { _csrf: csrf, source: 'opsgenie', key: OPSGENIE_KEY, do: 'plan' })).status).toBe(404);
    expect(opsgenie.requests.length).toBe(before);
    // No key, an unknown source, an API URL that is not one: the form again, saying which.
    const keyless = await post({ source: 'opsgenie', key: ' ', api_url: opsgenie.url, do: 'plan' });
    expect(keyless.status).toBe(400);
    expect(await keyless.text()).toContain('Type the source&#x27;s API key.');
    expect((await post({ source: 'grafana', key: 'k', do: 'plan' })).status).toBe(400);
    expect(await (await post({ source: 'pagerduty', key: 'k', api_url: 'file:///etc/passwd', do: 'plan' })).text()).toContain('The API URL must be an http:// or https:// address.');
    expect(opsgenie.requests.length).toBe(before);
  }, 90_000);

  test("Plan shows the stand-in's people and schedules and writes nothing; Apply (the key typed again) writes them and records the run the page shows; the key is nowhere", async () => {
    const ctx = await setUp();
    const { a, store, post, admin, page, logs } = ctx;
    const planned = await post({ source: 'opsgenie', key: OPSGENIE_KEY, region: 'us', api_url: opsgenie.url, do: 'plan' });
    expect(planned.status).toBe(200);
    const html = await planned.text();
    const section = /<section class="card" data-testid="import-planned"[\s\S]*?<\/section>/.exec(html)![0];
    expect(section).toContain('Opsgenie: The plan: nothing was written');
    const rows = [...section.matchAll(/<tr data-action="(\w+)" data-kind="(\w+)">[\s\S]*?<td data-label="Name">([^<]*)<\/td>/g)].map((m) => m.slice(1));
    expect(rows.filter(([, k]) => k === 'person')).toEqual([
      ['create', 'person', 'Ayşe Yılmaz'],
      ['create', 'person', 'Bora Kaya'],
      ['create', 'person', 'John Smith'],
      ['create', 'person', 'Cem Demir'],
      ['create', 'person', 'Deniz Ak'],
    ]);
    expect(rows).toContainEqual(['create', 'schedule', 'noc']);
    expect(section).toContain('random: one member chosen at random cannot be expressed here');
    // Apply carries the choices, not the key: its password field is empty again.
    const apply = /<form method="post" action="[^"]+" data-testid="import-apply">[\s\S]*?<\/form>/.exec(section)![0];
    expect(apply).toContain('<input type="hidden" name="source" value="opsgenie"/>');
    expect(apply).toContain(`<input type="hidden" name="api_url" value="${opsgenie.url}"/>`);
    expect(apply).toMatch(/<input id="import-apply-key" type="password" name="key" required autocomplete="off"[^>]*\/?>/);
    expect(apply).not.toMatch(/name="key"[^>]*value=/);
    expect(apply).toContain('<button type="submit" name="do" value="apply" class="danger">Apply: write it</button>');
    expect(await store.people.list(a.id)).toEqual([]);
    expect(await store.schedules.list(a.id)).toEqual([]);
    expect(await ctx.deps.services.panelReads.importRuns(a.id)).toEqual([]);

    const applied = await post({ source: 'opsgenie', region: 'us', api_url: opsgenie.url, key: OPSGENIE_KEY, do: 'apply' });
    expect(applied.status).toBe(303);
    expect(applied.headers.get('location')).toBe(`/panel/a/${a.id}/import?applied=opsgenie`);
    expect((await store.people.list(a.id)).map((p) => p.name).sort()).toEqual(['Ayşe Yılmaz', 'Bora Kaya', 'Cem Demir', 'Deniz Ak', 'John Smith']);
    expect((await store.schedules.list(a.id)).map((s) => s.name)).toContain('noc');
    const after = await (await admin.get(applied.headers.get('location')!)).text();
    expect(after).toContain('<p class="notice" role="status">Applied: the plan below was written and recorded.</p>');
    const run = /<section class="card" data-import-source="opsgenie"[\s\S]*?<\/section>/.exec(after)![0];
    expect(run).toMatch(/data-testid="import-summary">Summary: create \d+, skip \d+<\/p>/);
    expect(run).toContain('<li>Prometheus (Prometheus): http://localhost/v2/alerts</li>');
    // The panel's action log says who did what, never the form.
    expect(logs.some((l) => l.includes('"panel action"') && l.includes(`/panel/a/${a.id}/import`) && l.includes('"status":303'))).toBe(true);

    // Applying again changes nothing: the same rows, every object unchanged.
    const people = await store.people.list(a.id);
    expect((await post({ source: 'opsgenie', region: 'us', api_url: opsgenie.url, key: OPSGENIE_KEY, do: 'apply' })).status).toBe(303);
    expect(await store.people.list(a.id)).toEqual(people);
    expect(await (await admin.get(page)).text()).toMatch(/Summary: unchanged \d+, skip \d+<\/p>/);

    // The key: in no page, no log line, no row.
    for (const body of [html, after]) expect(body).not.toContain(OPSGENIE_KEY);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(OPSGENIE_KEY);
    const stored = await everythingStored(ctx);
    expect(stored).toContain('Ayşe Yılmaz'); // the look really reads the import's rows
    expect(stored).not.toContain(OPSGENIE_KEY);
  }, 90_000);

  test("a key the source refuses: its 401 in its own words on the page (502), the choices kept but not the key, nothing written; an unreachable source the same; the process serves meanwhile", async () => {
    const ctx = await setUp();
    const { a, store, post, admin, page, logs } = ctx;
    const wrong = await post({ source: 'pagerduty', key: WRONG_KEY, api_url: pagerduty.url, do: 'apply' });
    expect(wrong.status).toBe(502);
    const html = await wrong.text();
    expect(html).toContain('<p class="notice error" role="alert">The source was not read, nothing was written: PagerDuty answered 401: Unauthorized (GET /users)</p>');
    expect(html).toContain('<option value="pagerduty" selected>PagerDuty</option>');
    expect(html).toContain(`value="${pagerduty.url}"`);
    expect(await store.people.list(a.id)).toEqual([]);
    expect(await ctx.deps.services.panelReads.importRuns(a.id)).toEqual([]);
    expect((await post({ source: 'opsgenie', key: WRONG_KEY, api_url: opsgenie.url, do: 'check' })).status).toBe(502);

    // A source that takes the request and has not answered yet: the panel keeps serving.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let asked = 0;
    const slow = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch() {
        asked++;
        await gate;
        return Response.json({ message: 'Service Unavailable' }, { status: 503 });
      },
    });
    try {
      const pending = post({ source: 'opsgenie', key: WRONG_KEY, api_url: `http://127.0.0.1:${slow.port}`, do: 'plan' });
      await until('the slow source was asked', () => asked > 0);
      expect((await admin.get(page)).status).toBe(200);
      release();
      const r = await pending;
      expect(r.status).toBe(502);
      expect(await r.text()).toContain('Opsgenie answered 503: Service Unavailable (GET /v2/users)');
    } finally {
      slow.stop(true);
    }
    // Nothing listening there any more: "could not be reached", and still nothing written.
    const gone = await post({ source: 'opsgenie', key: WRONG_KEY, api_url: `http://127.0.0.1:${slow.port}`, do: 'plan' });
    expect(gone.status).toBe(502);
    expect(await gone.text()).toContain(`Opsgenie could not be reached at http://127.0.0.1:${slow.port}`);
    expect(await store.people.list(a.id)).toEqual([]);

    expect(logs.join('\n')).not.toContain(WRONG_KEY);
    expect(await everythingStored(ctx)).not.toContain(WRONG_KEY);
  }, 90_000);

  test("Check after Apply: agrees with the source's own timeline, then shows the exact minutes it was made to differ", async () => {
    // One daily rotation in America/New_York across the end of DST (as test/integration/import-cli.test.ts):
    // a handover at 09:00 local is 13:00Z before 2026-11-01 and 14:00Z after.
    const from = '2026-10-30T13:00:00Z';
    const handover = (d: number) => {
      const day = new Date(Date.UTC(2026, 9, 30 + d));
      day.setUTCHours(day < new Date('2026-11-01T00:00:00Z') ? 13 : 14);
      return day.toISOString();
    };
    const right = () => Array.from({ length: 15 }, (_, d) => ({ startDate: handover(d), endDate: handover(d + 1), user: d % 2 === 0 ? 'u-ayse' : 'u-bora' }));
    let periods = right();
    const standIn = startOpsgenieStandIn({
      schedules: [{ id: 's-simple', name: 'simple', timezone: 'America/New_York', enabled: true, rotations: [{ id: 'r-daily', name: 'daily', startDate: from, type: 'daily', length: 1, participants: [{ type: 'user', id: 'u-ayse' }, { type: 'user', id: 'u-bora' }] }] }],
      timeline: () => [{ id: 'r-daily', name: 'daily', periods }],
    });
    try {
      // The panel's clock at `from`: a check compares 14 days from now.
      const ctx = await setUp(() => Date.parse(from));
      const { a, post, admin } = ctx;
      const choices = { source: 'opsgenie', key: OPSGENIE_KEY, api_url: standIn.url };
      expect((await post({ ...choices, do: 'apply' })).status).toBe(303);
      const checked = await post({ ...choices, do: 'check' });
      expect(checked.headers.get('location')).toBe(`/panel/a/${a.id}/import?checked=opsgenie`);
      expect(standIn.requests).toContain('GET /v2/schedules/s-simple/timeline?identifierType=id&interval=14&intervalUnit=days&date=2026-10-30T13%3A00%3A00.000Z');
      let html = await (await admin.get(checked.headers.get('location')!)).text();
      expect(html).toContain('Checked: the result is below.');
      expect(html).toContain('<li data-schedule="simple" data-agrees="true"><strong>simple</strong><span>: agrees</span>');

      // Bora's day 3 (2026-11-02 from 14:00Z): Cem from 15:00Z to 17:30Z in the source.
      periods = right();
      const bora = periods[3]!;
      periods.splice(3, 1, { ...bora, endDate: '2026-11-02T15:00:00Z' }, { startDate: '2026-11-02T15:00:00Z', endDate: '2026-11-02T17:30:00Z', user: 'u-cem' }, { ...bora, startDate: '2026-11-02T17:30:00Z' });
      expect((await post({ ...choices, do: 'check' })).status).toBe(303);
      html = await (await admin.get(`/panel/a/${a.id}/import`)).text();
      expect(html).toMatch(/<li data-schedule="simple" data-agrees="false"><strong>simple<\/strong><span>: 1 disagreement\(s\)<\/span><ul><li>[^<]+ – [^<]+: theirs Cem Demir, ours Bora Kaya<\/li><\/ul><\/li>/);
      const [run] = await ctx.deps.services.panelReads.importRuns(a.id);
      expect(JSON.parse(run!.check!).schedules).toEqual([{ schedule: 'simple', disagreements: [{ from: '2026-11-02T15:00:00.000Z', to: '2026-11-02T17:30:00.000Z', theirs: 'Cem Demir', ours: 'Bora Kaya' }] }]);
      expect(html).not.toContain(OPSGENIE_KEY);
    } finally {
      standIn.stop();
    }
  }, 90_000);

  test('in Turkish', async () => {
    const { owner, page } = await acmeOwnerOn(await panelApp({ language: 'tr' }), 'import');
    const html = await (await owner.get(page)).text();
    expect(html).toContain('<label for="import-key">API anahtarı</label>');
    expect(html).toContain('<button type="submit" name="do" value="plan">Planla</button>');
  });

  test('PagerDuty: Plan with its token lists its people and policy, writing nothing', async () => {
    const { a, store, post } = await setUp();
    const r = await post({ source: 'pagerduty', key: PAGERDUTY_TOKEN, api_url: pagerduty.url, do: 'plan' });
    expect(r.status).toBe(200);
    const html = await r.text();
    expect(html).toContain('PagerDuty: The plan: nothing was written');
    expect(html).toMatch(/<tr data-action="create" data-kind="policy">[\s\S]*?<td data-label="Name">noc-policy<\/td>/);
    expect(html).not.toContain(PAGERDUTY_TOKEN);
    expect(await store.policies.list(a.id)).toEqual([]);
  });
});
