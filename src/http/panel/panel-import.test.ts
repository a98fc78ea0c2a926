import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';
import type { ImportCheck, ImportPlan } from '../../importers';

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
      await tx.importRuns.recordCheck(a.id, 'pagerduty', JSON.stringify({ ...CHECK, source: 'pagerduty', schedules: [{ schedule: 'ops', why: 'not imported: run --apply first', disagreements: [] }] }), applied - 60_000);
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
    expect(pd).toContain('<span>: not imported: run --apply first</span>');

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
