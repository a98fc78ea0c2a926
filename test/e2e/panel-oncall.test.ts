import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { launchBrowser, shot, type TestBrowser } from '../helpers/browser';
import { BINARY } from '../helpers/paths';
import { freePort } from '../helpers/ports';
import { startSipp, type SippPeer } from '../helpers/sipp';

/**
 * On-call run from the panel in Chromium against the compiled binary (issue 49 §2): a schedule
 * made and edited in the panel answers `oncall` as the same layers made by the CLI; an override
 * removed; a heartbeat made in the panel pinged with the URL it showed; the self-test run from
 * the panel against a sipp echo peer. One appliance and one browser for the file, in order.
 */
const ADMIN = { user: 'admin', password: 'admin-password-1' };

let dir: ApplianceDir;
let server: RunningAppliance;
let peer: SippPeer;
let b: TestBrowser;
let acc: ReturnType<typeof provision>;

/** The first layers, as the panel's fields take them and as `--layers` takes them. */
const FIRST = {
  fields: { l0_participants: 'Ayşe, 5321111111\nBora, 5322222222', l0_shift: '1d', l0_start: '2026-11-02T09:00' },
  json: [{ participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '1d', start: '2026-11-02T09:00' }],
};
/** The edit: a 12 h rotation, and a weekend layer over it. */
const EDITED = {
  fields: { l0_shift: '12h', l1_participants: '5323333333', l1_shift: '7d', l1_start: '2026-11-02T00:00', l1_restrictions: 'sat,sun 10:00-16:00' },
  json: [
    { ...FIRST.json[0], shift: '12h' },
    { participants: [{ name: '5323333333', number: '5323333333' }], shift: '7d', start: '2026-11-02T00:00', restrictions: [{ days: ['sat', 'sun'], from: '10:00', to: '16:00' }] },
  ],
};
/** Every 7 hours for 9 days: hand-offs, nights and a weekend. */
const INSTANTS = Array.from({ length: 31 }, (_, i) => new Date(Date.parse('2026-11-05T00:00:00Z') + i * 7 * 3_600_000).toISOString());

async function oncallAnswers(schedule: string) {
  return Promise.all(
    INSTANTS.map(async (at) => {
      const r = await fetch(`${server.url}/api/schedules/${schedule}/oncall?at=${encodeURIComponent(at)}`, { headers: { 'x-webhook-key': acc.webhookKey } });
      const { name, number, until } = (await r.json()) as Record<string, unknown>;
      return { at, name, number, until };
    }),
  );
}

async function fill(fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) await b.page.fill(`[name="${name}"]`, value);
}

/** No page scrolls sideways on a phone. */
async function fitsWidth() {
  return b.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

beforeAll(async () => {
  peer = await startSipp({ scenario: 'answer.xml', calls: 1, extra: ['-rtp_echo'] });
  const rtp = await freePort();
  dir = applianceDir({
    panel: { language: 'en' },
    sip: { local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 20}`, t1_ms: 50, trunks: [{ name: 'pbx', server: `127.0.0.1:${peer.port}` }] },
    calls: { ring_timeout_s: 5 },
    // Scheduled runs off: the only self-test is the one the panel asks for.
    self_test: { number: '600', duration_s: 1, expect: 'echo', interval_s: 0 },
  });
  const made = spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', '--username', ADMIN.user, '--password-stdin'], { cwd: dir.dir, input: `${ADMIN.password}\n`, encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  acc = provision(dir);
  server = await dir.start();
  b = await launchBrowser({ width: 1366, height: 900 });
  await b.page.goto(`${server.url}/panel/login`);
  await b.page.fill('#login', ADMIN.user);
  await b.page.fill('#password', ADMIN.password);
  await Promise.all([b.page.waitForNavigation(), b.page.click('button[type=submit]')]);
}, 60_000);

afterAll(async () => {
  await b?.close();
  await server?.stop();
  await peer?.stop();
});

describe('on-call from the panel in chromium', () => {
  test('a schedule made and edited in the panel answers oncall as the same layers made by the CLI; its feed URL stays', async () => {
    await b.page.goto(`${server.url}/panel/a/${acc.accountId}/schedules`);
    await Promise.all([b.page.waitForNavigation(), b.page.click(`a[href$="/schedules/new"]`)]);
    await fill({ name: 'noc', time_zone: 'Europe/Istanbul', ...FIRST.fields });
    // Preview first: the next 14 days, and only then a Save button.
    expect(await b.page.locator('button[value=save]').count()).toBe(0);
    await Promise.all([b.page.waitForNavigation(), b.page.click('button[value=preview]')]);
    expect(await b.page.locator('[data-testid=preview] tbody tr').count()).toBeGreaterThanOrEqual(14);
    await b.page.screenshot({ path: shot('schedule-preview'), fullPage: true });
    await Promise.all([b.page.waitForNavigation(), b.page.click('button[value=save]')]);
    expect(await b.page.textContent('.notice')).toContain('Schedule saved.');

    dir.cliJson(['schedule', 'create', acc.accountId, '--name', 'cli', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(FIRST.json)]);
    const before = dir.cliJson(['schedule', 'show', acc.accountId, 'noc']);
    expect(before.layers).toEqual(dir.cliJson(['schedule', 'show', acc.accountId, 'cli']).layers);
    expect(await oncallAnswers('noc')).toEqual(await oncallAnswers('cli'));

    await Promise.all([b.page.waitForNavigation(), b.page.click(`section[data-schedule="noc"] a[href$="/edit"]`)]);
    await fill(EDITED.fields);
    await Promise.all([b.page.waitForNavigation(), b.page.click('button[value=preview]')]);
    await Promise.all([b.page.waitForNavigation(), b.page.click('button[value=save]')]);
    dir.cliJson(['schedule', 'update', acc.accountId, 'cli', '--layers', JSON.stringify(EDITED.json)]);
    const after = dir.cliJson(['schedule', 'show', acc.accountId, 'noc']);
    expect(after).toMatchObject({ id: before.id, ics_url: before.ics_url });
    expect(after.layers).toEqual(dir.cliJson(['schedule', 'show', acc.accountId, 'cli']).layers);
    const answers = await oncallAnswers('noc');
    expect(answers).toEqual(await oncallAnswers('cli'));
    expect(new Set(answers.map((a) => a.name))).toEqual(new Set(['Ayşe', 'Bora', '5323333333']));
    // The same answer from `schedule oncall`, at one of those instants.
    const [, , third] = answers;
    expect(dir.cliJson(['schedule', 'oncall', acc.accountId, 'noc', '--at', third!.at])).toEqual({ name: third!.name, number: third!.number, until: third!.until });
  }, 90_000); // seven runs of the CLI one after the other: 25 s on a loaded 2-core machine

  test('an override removed in the panel is gone for the CLI', async () => {
    const o = dir.cliJson(['schedule', 'override', acc.accountId, 'noc', '--from', '2099-01-01T00:00:00Z', '--to', '2099-01-02T00:00:00Z', '--number', '5324444444', '--name', 'Deniz']);
    await b.page.goto(`${server.url}/panel/a/${acc.accountId}/schedules`);
    await Promise.all([b.page.waitForNavigation(), b.page.click(`li[data-override="${o.id}"] button`)]);
    expect(await b.page.textContent('.notice')).toContain('Override removed.');
    expect(dir.cliJson(['schedule', 'show', acc.accountId, 'noc']).overrides).toEqual([]);
  });

  test('at 390 px: a heartbeat made in the panel, pinged with the URL it showed, is up', async () => {
    await b.page.setViewportSize({ width: 390, height: 844 });
    await b.page.goto(`${server.url}/panel/a/${acc.accountId}/heartbeats`);
    await fill({ name: 'nightly backup', interval_s: '3600', to: '5321111111' });
    await Promise.all([b.page.waitForNavigation(), b.page.click('#new-heartbeat ~ form button[type=submit]')]);
    const url = (await b.page.textContent('#ping-url'))!.trim();
    expect(url).toMatch(new RegExp(`^${server.url}/heartbeat/[0-9A-Za-z]{32}$`));
    expect(await b.page.textContent('#ping-curl')).toBe(`curl -fsS -m 10 --retry 3 ${url}`);
    expect(await fitsWidth()).toBe(true);
    await b.page.screenshot({ path: shot('heartbeat-created-390'), fullPage: true });
    expect((await fetch(url)).status).toBe(200);
    await b.page.goto(`${server.url}/panel/a/${acc.accountId}/heartbeats`);
    expect(await b.page.getAttribute('tr[data-heartbeat="nightly backup"]', 'data-state')).toBe('up');
    expect(dir.cliJson(['heartbeat', 'show', acc.accountId, 'nightly backup']).state).toBe('up');
    // The schedule form fits a phone too.
    await b.page.goto(`${server.url}/panel/a/${acc.accountId}/schedules/new`);
    expect(await fitsWidth()).toBe(true);
    await b.page.setViewportSize({ width: 1366, height: 900 });
  });

  test('the self-test run from the panel passes against the echo peer', async () => {
    await b.page.goto(`${server.url}/panel/trunks`);
    expect(await b.page.textContent('[data-testid="last-self-test-pbx"]')).toContain('never run');
    await Promise.all([b.page.waitForNavigation(), b.page.click('tr[data-trunk="pbx"] button')]);
    // The live part follows the run (htmx, every 2 s): the scheduler's next look runs it.
    await b.page.waitForSelector('[data-testid="last-self-test-pbx"] .badge[data-state="passed"]', { timeout: 20_000 });
    expect(await b.page.textContent('[data-testid="last-self-test-pbx"]')).toMatch(/echo: \d+ of 50 frames came back in order/);
    expect(dir.cliJson(['self-test', 'list'])[0]).toMatchObject({ trunk: 'pbx', ok: true, origin: 'schedule' });
    await b.page.screenshot({ path: shot('trunks-self-test'), fullPage: true });
  });
});
