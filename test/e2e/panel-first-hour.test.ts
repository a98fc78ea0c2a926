import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { launchBrowser, shot, type TestBrowser } from '../helpers/browser';
import { BINARY } from '../helpers/paths';

/**
 * Issue 49 §3 "The first hour" in a real browser, on a Turkish panel (the default language):
 * the calls list at 1366 px keeps acknowledged/answered/finished, every input is styled, and
 * the browser's validation bubbles speak Turkish.
 */
const ADMIN = { user: 'admin', password: 'admin-password-1' };
let dir: ApplianceDir;
let server: RunningAppliance;
let browser: TestBrowser;
let accountId = '';
let callId = '';

beforeAll(async () => {
  dir = applianceDir({ panel: { language: 'tr' } });
  const made = spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', '--username', ADMIN.user, '--password-stdin'], { input: `${ADMIN.password}\n`, encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  const acc = provision(dir);
  accountId = acc.accountId;
  const layers = [{ participants: [{ name: 'Ayşe', number: '5321111111' }], shift: '7d', start: '2026-11-02T09:00' }];
  dir.cliJson(['schedule', 'create', accountId, '--name', 'noc', '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
  server = await dir.start();
  const r = await fetch(`${server.url}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: '5321234567', error_message: 'Disk dolu' }),
  });
  expect(r.status).toBe(200);
  callId = ((await r.json()) as { call_id: string }).call_id;
  // No trunk: the call waits. Ended by hand as a call answered and acknowledged would be.
  const db = dir.database();
  const t = Date.parse('2026-11-15T09:00:00Z');
  await db.run(`UPDATE calls SET state = 'acknowledged', answered_at = ${t + 5_000}, finished_at = ${t + 40_000}, acknowledged_at = ${t + 30_000} WHERE id = '${callId}'`);
  await db.close();
  browser = await launchBrowser({ width: 1366, height: 900 });
  await browser.page.goto(`${server.url}/panel/login`);
  await browser.page.fill('#login', ADMIN.user);
  await browser.page.fill('#password', ADMIN.password);
  await Promise.all([browser.page.waitForNavigation(), browser.page.click('button[type=submit]')]);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the first hour in chromium (Turkish panel)', () => {
  test('the calls list shows acknowledged, answered and finished in one cell at 1366 and 1700 px, as labelled lines on a phone; nothing clipped', async () => {
    const page = browser.page;
    const visibleText = (selector: string) =>
      page.$$eval(selector, (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null && getComputedStyle(e).display !== 'none').map((e) => (e as HTMLElement).innerText.trim()));
    const row = `tr[data-call-id="${callId}"]`;
    for (const width of [1366, 1700, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/panel/a/${accountId}/calls`);
      const cells = (await visibleText(`${row} td`)).join('\n');
      // 09:00:30, 09:00:05 and 09:00:40 UTC are 12:00:30, 12:00:05, 12:00:40 in Istanbul.
      for (const time of ['12:00:30', '12:00:05', '12:00:40']) expect(cells, `${width} px`).toContain(time);
      const clipped = await page.$$eval('.table-wrap', (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
      expect({ width, clipped, scroll: await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) }).toEqual({ width, clipped: 0, scroll: 0 });
      await page.screenshot({ path: shot(`first-hour-calls-${width}`), fullPage: true });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('every input the panel shows is styled like the others: policy name, maintenance reason, callback URL, override fields', async () => {
    const page = browser.page;
    const unstyled: string[] = [];
    for (const path of ['policies', 'maintenance', 'callbacks', 'schedules']) {
      await page.goto(`${server.url}/panel/a/${accountId}/${path}`);
      const found = await page.$$eval('main input:not([type=hidden]):not([type=checkbox]):not([type=radio]), main select, main textarea', (els) =>
        els.map((e) => {
          const s = getComputedStyle(e);
          return { name: `${(e as HTMLInputElement).type} ${(e as HTMLInputElement).name}`, radius: s.borderTopLeftRadius, border: s.borderTopColor };
        }),
      );
      expect(found.length, path).toBeGreaterThan(0);
      for (const f of found) if (f.radius !== '4px' || f.border !== 'rgb(107, 111, 118)') unstyled.push(`${path}: ${f.name}`);
    }
    expect(unstyled).toEqual([]);
  });

  test("the browser's validation messages are Turkish on a Turkish page", async () => {
    const page = browser.page;
    await page.goto(`${server.url}/panel/a/${accountId}/policies`);
    const name = page.locator('main form input[name="name"]').first();
    await name.fill('');
    expect(await name.evaluate((e: HTMLInputElement) => (e.form!.checkValidity(), e.validationMessage))).toBe('Lütfen bu alanı doldurun.');
    // Typed in, it is valid again: our message does not stick.
    await name.fill('gece');
    expect(await name.evaluate((e: HTMLInputElement) => e.checkValidity())).toBe(true);
    await page.goto(`${server.url}/panel/a/${accountId}/callbacks`);
    const url = page.locator('main input[type="url"]').first();
    await url.fill('not a url');
    expect(await url.evaluate((e: HTMLInputElement) => (e.checkValidity(), e.validationMessage))).toBe('Geçerli bir adres girin (http:// veya https:// ile başlayan).');
  });
});
