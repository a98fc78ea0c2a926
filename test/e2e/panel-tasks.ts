import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { launchBrowser, shot, type TestBrowser } from '../helpers/browser';
import { OPSGENIE_KEY, startOpsgenieStandIn } from '../helpers/opsgenie-standin';
import { BINARY } from '../helpers/paths';

/**
 * docs/panel.md "Where each task lives", row by row, in Chromium against the compiled binary
 * (issue 49 "Tests"): each row's task done through the panel's pages as a user would (click,
 * type, choose), at 1366×900 and at 390×844, and its result checked where the other side sees
 * it: the CLI or the HTTP API (the database only where neither shows it: a callback URL, the
 * desk PIN's hash). On every page: nothing scrolls sideways, and the control used is on screen.
 * Rows whose CLI side differs in how (rotate/require a signature, import, passwords) also run
 * that side here and read it back in the panel.
 *
 * One appliance, one browser, one administrator login and one account per width, each width a
 * test file of its own (panel-tasks-wide.test.ts, panel-tasks-narrow.test.ts); names carry the
 * width, so a failure says which pass it was. The trunk is
 * configured but can never come up (192.0.2.1, TEST-NET-1, is no address of this host), so a
 * call the panel queues stays queued for the test to look at: no SIP peer. Running the
 * self-test against a peer is test/e2e/panel-oncall.test.ts's part.
 */
const ADMIN = { user: 'admin' };
/** The administrator's password now: the width's last test changes it (the passwords row). */
let adminPassword = 'admin-password-1';
/** A trunk password: the settings page must never show it. */
const TRUNK_SECRET = 'trunk-secret-5e1f';

let dir: ApplianceDir;
let server: RunningAppliance;

/** The panel's login form, as a script would post it: 303 logged in, 401 refused. */
async function loginStatus(login: string, password: string): Promise<number> {
  const page = await fetch(`${server.url}/panel/login`);
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const r = await fetch(`${server.url}/panel/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
    body: new URLSearchParams({ _csrf: csrf, login, password }),
  });
  return r.status;
}

const cliFails = (args: string[]) => {
  const r = dir.cli(args);
  expect(r.status, `voice-alert ${args.join(' ')} should have been refused: ${r.stdout}`).toBe(1);
  return r.stderr;
};

/**
 * The two widths the rows run at, one test file each (panel-tasks-wide.test.ts,
 * panel-tasks-narrow.test.ts) with an appliance each, so that two workers run them side by side:
 * one file of both took 100 s, the longest of the suite's CPU-bound run.
 */
export const WIDE = { width: 1366, height: 900 };
export const NARROW = { width: 390, height: 844 };

/** Every row of docs/panel.md "Where each task lives" at one width, against an appliance of its own. */
export function panelTasksAt({ width, height }: { width: number; height: number }): void {
  beforeAll(async () => {
    dir = applianceDir({
      panel: { language: 'en' },
      sip: { local_address: '192.0.2.1', local_port: 0, trunks: [{ name: 'pbx', server: '127.0.0.1:5999', username: 'va', password: TRUNK_SECRET }] },
      // A self-test number makes the trunk testable (its button shown); never run on a schedule.
      self_test: { number: '600', interval_s: 0 },
    });
    const made = spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', '--username', ADMIN.user, '--password-stdin'], { cwd: dir.dir, input: `${adminPassword}\n`, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    server = await dir.start();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  describe(`panel tasks at ${width} px`, () => {
    /** This width's names. */
    const n = (s: string) => `${s}-${width}`;
    let b: TestBrowser;
    let acc: ReturnType<typeof provision>;
    let base = '';

    beforeAll(async () => {
      acc = provision(dir, 'professional');
      base = `/panel/a/${acc.accountId}`;
      b = await launchBrowser({ width, height });
      await b.page.goto(`${server.url}/panel/login`);
      await b.page.fill('#login', ADMIN.user);
      await b.page.fill('#password', adminPassword);
      await Promise.all([b.page.waitForNavigation(), b.page.click('button[type=submit]')]);
      expect(b.page.url()).toBe(`${server.url}/panel/overview`);
    }, 60_000);

    afterAll(async () => {
      await b?.close();
    });

    /** Nothing on the page scrolls sideways. */
    async function fits() {
      const { scroll, wide } = await b.page.evaluate(() => {
        const w = window.innerWidth;
        const scroll = document.documentElement.scrollWidth;
        if (scroll <= w) return { scroll, wide: [] };
        // The innermost elements that stick out: what to fix when the page scrolls sideways.
        const wide = [...document.querySelectorAll('body *')]
          .filter((e) => {
            // Its box or its overflowing text (a long word in a heading) past the right edge.
            const r = e.getBoundingClientRect();
            return r.left + Math.max(r.width, e.scrollWidth) > w + 1 && ![...e.children].some((c) => c.getBoundingClientRect().right > w + 1);
          })
          .slice(0, 5)
          .map((e) => `${Math.round(e.getBoundingClientRect().right)} px: ${e.parentElement?.outerHTML.slice(0, 200)}`);
        return { scroll, wide };
      });
      expect(scroll, `${b.page.url()} scrolls sideways at ${width} px: ${wide.join(', ')}`).toBeLessThanOrEqual(width);
    }

    /** Opens a page of the panel (200) that fits the width. */
    async function open(path: string) {
      const res = await b.page.goto(`${server.url}${path}`);
      expect(res?.status(), path).toBe(200);
      await fits();
    }

    const at = (target: string | Locator) => (typeof target === 'string' ? b.page.locator(target) : target);

    /** The control is there, shown, and inside the screen once scrolled to (as a user would scroll). */
    async function onScreen(target: string | Locator): Promise<Locator> {
      const l = at(target);
      // The overview replaces its part every 5 s (htmx): the element found may be replaced before
      // it is scrolled to ("Element is not attached to the DOM", seen on a loaded machine). A user's
      // eye finds the new one: find it again, until one holds still long enough to be measured.
      let box: Awaited<ReturnType<Locator['boundingBox']>> = null;
      await expect
        .poll(
          async () => {
            try {
              await l.scrollIntoViewIfNeeded({ timeout: 5_000 });
              box = await l.boundingBox();
              return box !== null;
            } catch (e) {
              if (/not attached to the DOM/.test(String(e))) return false;
              throw e;
            }
          },
          { timeout: 10_000, interval: 100 },
        )
        .toBe(true);
      expect(box, `${l} has no box`).not.toBeNull();
      const inside = box!.x >= -1 && box!.x + box!.width <= width + 1 && box!.y >= -1 && box!.y + box!.height <= height + 1;
      expect(inside, `${l} is off screen at ${width} px: ${JSON.stringify(box)}`).toBe(true);
      return l;
    }

    async function type(target: string | Locator, value: string) {
      await (await onScreen(target)).fill(value);
    }

    async function choose(target: string | Locator, value: string) {
      await (await onScreen(target)).selectOption(value);
    }

    /** Clicks a button or link that leads to a page; that page answers `status` and fits. */
    async function press(target: string | Locator, status = 200) {
      const l = await onScreen(target);
      const [res] = await Promise.all([b.page.waitForNavigation(), l.click()]);
      const refusal = res?.status() === status ? '' : await b.page.locator('.notice.error').allTextContents();
      expect(res?.status(), `after ${l}: ${refusal}`).toBe(status);
      await fits();
    }

    /** Opens a <details> by its summary, as a user would. */
    async function unfold(details: string | Locator) {
      await (await onScreen(at(details).locator('summary'))).click();
    }

    const text = async (target: string | Locator) => ((await at(target).textContent()) ?? '').trim();
    const notice = () => text('[role=status].notice');

    /** The account's HTTP API with its key and secret: what monitoring tools and scripts see. */
    async function api<T = any>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
      const r = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'x-api-key': acc.apiKey, 'x-api-secret': acc.apiSecret, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const body = await r.text();
      expect(r.status, `${init.method ?? 'GET'} ${path}: ${body}`).toBeLessThan(300);
      return JSON.parse(body) as T;
    }
    const person = async (name: string) => (await api(`/api/people/${encodeURIComponent(name)}`)).person;

    test('accounts: create, plan, credit, disable', async () => {
      await open('/panel/accounts');
      await type('#name', n('Acme'));
      await choose('#plan', 'starter');
      await press('section[aria-labelledby=create-account] button[type=submit]');
      const row = b.page.locator('tr[data-account-id]', { hasText: n('Acme') });
      const id = (await row.getAttribute('data-account-id'))!;
      expect(dir.cliJson(['account', 'show', id])).toMatchObject({ name: n('Acme'), plan: 'starter', monthly_credit: 15, disabled: false });

      await choose(`#plan-${id}`, 'professional');
      await type(`#credit-${id}`, '70');
      await press(row.locator('form[action$="/plan"] button'));
      expect(dir.cliJson(['account', 'show', id])).toMatchObject({ plan: 'professional', monthly_credit: 70 });
      expect(await text(b.page.locator(`tr[data-account-id="${id}"] td.num`))).toBe('70 / 70');

      // Disabling asks first; only the confirmation page's button acts.
      await press(b.page.locator(`tr[data-account-id="${id}"] form[action$="/disabled"] button`));
      await press('#confirm button[type=submit]');
      expect(dir.cliJson(['account', 'show', id]).disabled).toBe(true);
      await b.page.screenshot({ path: shot(`tasks-${width}-accounts`), fullPage: true });
    }, 60_000);

    test('owners: create, list, reset a password', async () => {
      const email = `${n('owner')}@acme.test`;
      await open('/panel/accounts');
      const row = b.page.locator(`tr[data-account-id="${acc.accountId}"]`);
      await unfold(row.locator('details'));
      await type(`#owner-${acc.accountId}`, email);
      await press(row.locator('details form button[type=submit]'));
      const first = await text('#generated-password');
      expect(first.length).toBeGreaterThanOrEqual(10);
      expect(dir.cliJson(['owner', 'list', acc.accountId]).map((o: { email: string }) => o.email)).toEqual([email]);
      expect(await loginStatus(email, first)).toBe(303);

      // Listed on the account's row; its reset asks first, then shows the new password once.
      const owner = b.page.locator(`tr[data-account-id="${acc.accountId}"] .owner`, { hasText: email });
      await press(owner.locator('button'));
      await press('#confirm button[type=submit]');
      const second = await text('#reset-password');
      expect(second).not.toBe(first);
      expect(await loginStatus(email, first)).toBe(401);
      expect(await loginStatus(email, second)).toBe(303);
    }, 60_000);

    test('API keys: create, list, revoke', async () => {
      await open(`${base}/keys`);
      await press('#create-keys ~ form button[type=submit]');
      const apiKey = await text('#issued-api-key');
      const apiSecret = await text('#issued-api-secret');
      expect(apiKey).toMatch(/^vak_/);
      const listed = dir.cliJson(['keys', 'list', acc.accountId]) as { api_key: string; revoked_at: string | null }[];
      expect(listed.find((k) => k.api_key === apiKey)).toMatchObject({ revoked_at: null });
      await open(`${base}/keys`);
      expect(await b.page.locator('tr[data-api-key]').count()).toBe(listed.length);

      await press(`tr[data-api-key="${apiKey}"] button.danger`);
      await press('#confirm button[type=submit]');
      expect(await text(`tr[data-api-key="${apiKey}"]`)).toContain('Revoked');
      const revoked = (dir.cliJson(['keys', 'list', acc.accountId]) as { api_key: string; revoked_at: string | null }[]).find((k) => k.api_key === apiKey);
      expect(revoked?.revoked_at).not.toBeNull();
      const api = await fetch(`${server.url}/api/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: apiKey, api_secret: apiSecret, phone_number: '5321234567', error_message: 'x' }),
      });
      expect(api.status).toBe(403);
    }, 60_000);

    // The row "API keys: rotate the webhook key, require a signature later": the panel's buttons,
    // then `keys require-signature --off` and `keys rotate-webhook`, seen on the page.
    test('API keys: rotate the webhook key, require a signature later', async () => {
      const k = dir.cliJson(['keys', 'create', acc.accountId]) as { api_key: string; webhook_key: string };
      // An empty alert: 400 with a key the appliance takes, 403 with one it refuses (nothing queued either way).
      const hook = async (key: string) => {
        const r = await fetch(`${server.url}/webhook/receive?key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        return `${r.status} ${((await r.json()) as { message: string }).message}`;
      };
      expect(await hook(k.webhook_key)).toMatch(/^400 /);

      await open(`${base}/keys`);
      await press(`tr[data-api-key="${k.api_key}"] form[action$="/rotate"] button`);
      await press('#confirm button[type=submit]');
      const rotated = await text('#rotated-webhook-key');
      expect(rotated).toMatch(/^vwk_/);
      expect(await hook(k.webhook_key)).toMatch(/^403 /);
      expect(await hook(rotated)).toMatch(/^400 /);

      await press(`tr[data-api-key="${k.api_key}"] form[action$="/signature"] button`);
      const listed = (dir.cliJson(['keys', 'list', acc.accountId]) as { api_key: string; require_signature: boolean }[]).find((x) => x.api_key === k.api_key);
      expect(listed?.require_signature).toBe(true);
      expect(await hook(rotated)).toBe('403 Signature required');

      // The same two tasks from the command line; the panel shows what they did.
      expect((dir.cliJson(['keys', 'require-signature', acc.accountId, k.api_key, '--off']) as { require_signature: boolean }).require_signature).toBe(false);
      const again = (dir.cliJson(['keys', 'rotate-webhook', acc.accountId, k.api_key]) as { webhook_key: string }).webhook_key;
      expect(await hook(rotated)).toMatch(/^403 /);
      expect(await hook(again)).toMatch(/^400 /);
      await open(`${base}/keys`);
      // Its button offers to require a signature again (posting required=1).
      const signature = `tr[data-api-key="${k.api_key}"] form[action$="/signature"]`;
      await onScreen(`${signature} button`);
      expect(await b.page.getAttribute(`${signature} input[name=required]`, 'value')).toBe('1');
    }, 60_000);

    test('escalation policies: create, edit in place with "used by", delete refused while used, a key\'s default', async () => {
      const name = n('oncall');
      await open(`${base}/policies`);
      const create = b.page.locator('section[aria-labelledby=new-policy]');
      await type(create.locator('[name=name]'), name);
      await type(create.locator('[name=steps]'), '5321111111 : 120\n5322222222, 5323333333 : 300');
      await type(create.locator('[name=rounds]'), '3');
      await press(create.locator('button[type=submit]'));
      const made = dir.cliJson(['policy', 'show', acc.accountId, name]);
      expect(made).toMatchObject({ name, rounds: 3 });
      expect(made.steps.map((s: { numbers: string[]; wait_s: number }) => [s.numbers, s.wait_s])).toEqual([
        [['5321111111'], 120],
        [['5322222222', '5323333333'], 300],
      ]);

      // Used by a heartbeat: the card says so, the edit keeps the policy (same id), the delete is refused.
      dir.cliJson(['heartbeat', 'create', acc.accountId, '--name', n('watchdog'), '--interval-s', '3600', '--policy', name]);
      await open(`${base}/policies`);
      const card = b.page.locator(`section[data-policy="${name}"]`);
      expect(await text(card.locator('[data-testid=used-by]'))).toContain(n('watchdog'));
      await unfold(card.locator('details'));
      await type(card.locator('details [name=steps]'), '5322222222, 5323333333 : 60\n5321111111 : 120');
      await press(card.locator('details button[type=submit]'));
      const edited = dir.cliJson(['policy', 'show', acc.accountId, name]);
      expect(edited.id).toBe(made.id);
      expect(edited.steps.map((s: { numbers: string[] }) => s.numbers)).toEqual([['5322222222', '5323333333'], ['5321111111']]);

      // Its delete page lists who uses it and offers no delete button.
      await press(b.page.locator(`section[data-policy="${name}"] form[action$="/delete"] button`));
      expect(await text('[data-used-by] li[data-kind=heartbeat]')).toContain(n('watchdog'));
      expect(await b.page.locator('#confirm').count()).toBe(0);
      expect(dir.cliJson(['policy', 'show', acc.accountId, name]).id).toBe(made.id);

      // A key's default.
      await open(`${base}/policies`);
      await choose(`#default-${acc.apiKey}`, made.id);
      await press(b.page.locator(`form[action$="/default/${acc.apiKey}"] button`));
      const key = (dir.cliJson(['keys', 'list', acc.accountId]) as { api_key: string; default_policy_id: string | null }[]).find((k) => k.api_key === acc.apiKey);
      expect(key?.default_policy_id).toBe(made.id);

      // An unused policy is deleted after its page asks.
      dir.cliJson(['policy', 'create', acc.accountId, '--name', n('spare'), '--step', '5324444444']);
      await open(`${base}/policies`);
      await press(`section[data-policy="${n('spare')}"] form[action$="/delete"] button`);
      await press('#confirm button[type=submit]');
      expect(cliFails(['policy', 'show', acc.accountId, n('spare')])).toContain('not found');
    }, 60_000);

    test("the account's fallback", async () => {
      await open(`${base}/policies`);
      await type('#fallback-phone', '0532 999 88 77');
      await press('section[aria-labelledby=fallback] button[type=submit]');
      expect(dir.cliJson(['account', 'show', acc.accountId]).fallback).toMatchObject({ phone_number: '5329998877' });
      expect(await b.page.getAttribute('section[aria-labelledby=fallback]', 'data-fallback')).toBe('5329998877');
    }, 60_000);

    test('people: create, edit, delete refused while used, phones in order, language', async () => {
      const name = n('Ayşe');
      await open(`${base}/people`);
      const create = b.page.locator('section[aria-labelledby=new-person]');
      await type(create.locator('[name=name]'), name);
      await type(create.locator('[name=phones]'), '5321111111\n5322222222');
      await choose(create.locator('[name=language]'), 'en');
      await press(create.locator('button[type=submit]'));
      const made = await person(name);
      expect(made).toMatchObject({ name, language: 'en' });
      expect(made.phones.map((p: { number: string }) => p.number)).toEqual(['5321111111', '5322222222']);

      // Edited in place: phones in the other order, the call language Turkish.
      const card = b.page.locator(`section[data-person="${name}"]`);
      await unfold(card.locator('details'));
      await type(card.locator('details [name=phones]'), '5322222222\n5321111111');
      await choose(card.locator('details [name=language]'), 'tr');
      await press(card.locator('details button[type=submit]'));
      const edited = await person(name);
      expect(edited).toMatchObject({ id: made.id, language: 'tr' });
      expect(edited.phones.map((p: { number: string }) => p.number)).toEqual(['5322222222', '5321111111']);
      expect(await b.page.locator(`section[data-person="${name}"] li[data-phone]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-phone')))).toEqual(['5322222222', '5321111111']);

      // Named by a policy: the delete is refused, naming it.
      dir.cliJson(['policy', 'create', acc.accountId, '--name', n('people-pol'), '--step', `+${name}`]);
      await press(`section[data-person="${name}"] form[action$="/delete"] button`);
      expect(await text('[data-used-by] li[data-kind=policy]')).toContain(n('people-pol'));
      expect(await b.page.locator('#confirm').count()).toBe(0);
      expect((await person(name)).id).toBe(made.id);
    }, 60_000);

    test("a verification call to a person's phones", async () => {
      const name = n('Cem');
      await api('/api/people', { method: 'POST', body: { name, phones: ['5325550000'] } });
      await open(`${base}/people`);
      await press(`section[data-person="${name}"] form[action$="/verify"] button`);
      expect(await notice()).toBe('Verification calls placed to 1 phone(s); the results appear here as they end.');
      // The dialer's queue holds the call (the trunk never comes up here), as the CLI lists it.
      const calls = (dir.cliJson(['calls', 'list', acc.accountId]) as { id: string; phone_number: string; state: string }[]).filter((c) => c.phone_number === '5325550000');
      expect(calls.map((c) => c.state)).toEqual(['queued']);
      // A verification call: no alert, nothing charged (docs/on-call.md "Verification").
      expect(await call(calls[0]!.id)).toMatchObject({ alert_id: null });
    }, 60_000);

    /** Weekdays 09–17 only (gaps every night), by a bare number or a person. Made by the CLI. */
    function weekdaySchedule(name: string, participant: Record<string, string> = { name: 'Deniz', number: '5326660000' }) {
      const layers = [{ participants: [participant], shift: '7d', start: '2026-11-02T00:00', restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }] }];
      return dir.cliJson(['schedule', 'create', acc.accountId, '--name', name, '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
    }

    test("coverage: the next days' shifts, gaps, people with no verified phone", async () => {
      const name = n('weekdays');
      const who = n('Fatma');
      await api('/api/people', { method: 'POST', body: { name: who, phones: ['5326660001'] } });
      weekdaySchedule(name, { person: who });
      await open(`${base}/coverage`);
      await type('#coverage-days', '7');
      await press(b.page.locator('form:has(#coverage-days) button'));
      const card = b.page.locator(`[data-schedule="${name}"]`);
      const starts = await card.locator('[data-testid=coverage-shifts] tr[data-start]').evaluateAll((els) => els.map((e) => e.getAttribute('data-start')));
      const gaps = await card.locator('[data-testid=gaps] tr[data-gap]').count();
      // The API over 8 days holds every shift the page's 7 days show (the two asked seconds apart).
      const fromApi = (await api('/api/coverage?days=8')).schedules.find((s: { name: string }) => s.name === name);
      expect(starts.length).toBeGreaterThanOrEqual(4);
      expect(fromApi.shifts.map((s: { start: string }) => s.start)).toEqual(expect.arrayContaining(starts));
      expect(gaps).toBeGreaterThanOrEqual(4);
      expect(fromApi.gaps.length).toBeGreaterThanOrEqual(gaps);
      // Her one phone was never verified: named on the page, as in the API's `unverified`.
      expect(fromApi.unverified.map((u: { name: string }) => u.name)).toEqual([who]);
      await onScreen(card.locator(`[data-testid=unverified] [data-unverified="${who}"]`));
    }, 60_000);

    test('schedules: create with a 14-day preview, edit (feed URL kept), delete', async () => {
      const name = n('noc');
      await open(`${base}/schedules`);
      await press(`a[href$="/schedules/new"]`);
      await type('#s-name', name);
      await type('#s-tz', 'Europe/Istanbul');
      await type('#l0-participants', 'Ayşe, 5321111111\nBora, 5322222222');
      await type('#l0-shift', '1d');
      await type('#l0-start', '2026-11-02T09:00');
      expect(await b.page.locator('button[value=save]').count()).toBe(0);
      await press('button[value=preview]');
      expect(await b.page.locator('[data-testid=preview] tbody tr').count()).toBeGreaterThanOrEqual(14);
      await press('button[value=save]');
      expect(await notice()).toContain('Schedule saved.');
      const made = dir.cliJson(['schedule', 'show', acc.accountId, name]);
      expect(made.layers).toEqual([{ participants: [{ name: 'Ayşe', number: '5321111111' }, { name: 'Bora', number: '5322222222' }], shift: '1d', start: '2026-11-02T09:00' }]);

      await press(`section[data-schedule="${name}"] a[href$="/edit"]`);
      await type('#l0-shift', '12h');
      await press('button[value=preview]');
      await press('button[value=save]');
      const edited = dir.cliJson(['schedule', 'show', acc.accountId, name]);
      expect(edited).toMatchObject({ id: made.id, ics_url: made.ics_url });
      expect(edited.layers[0].shift).toBe('12h');
      expect((await fetch(made.ics_url)).status).toBe(200);

      await press(`section[data-schedule="${name}"] form[action$="/delete"] button`);
      await press('#confirm button[type=submit]');
      expect(cliFails(['schedule', 'show', acc.accountId, name])).toContain('Schedule not found');
    }, 60_000);

    test('overrides: add, remove', async () => {
      const name = n('rota');
      weekdaySchedule(name);
      await open(`${base}/schedules`);
      const card = b.page.locator(`section[data-schedule="${name}"]`);
      await unfold(card.locator('details'));
      await type(card.locator('details [name=from]'), '2099-01-01T09:00');
      await type(card.locator('details [name=to]'), '2099-01-02T09:00');
      await type(card.locator('details [name=number]'), '5324444444');
      await type(card.locator('details [name=name]'), 'Deniz');
      await press(card.locator('details button[type=submit]'));
      const [o] = dir.cliJson(['schedule', 'show', acc.accountId, name]).overrides;
      expect(o).toMatchObject({ number: '5324444444', name: 'Deniz' });

      await press(`li[data-override="${o.id}"] button`);
      expect(await notice()).toContain('Override removed.');
      expect(dir.cliJson(['schedule', 'show', acc.accountId, name]).overrides).toEqual([]);
    }, 60_000);

    test('who is on call', async () => {
      const name = n('always');
      const layers = [{ participants: [{ name: 'Ece', number: '5327770000' }], shift: '7d', start: '2026-11-02T00:00' }];
      dir.cliJson(['schedule', 'create', acc.accountId, '--name', name, '--time-zone', 'Europe/Istanbul', '--layers', JSON.stringify(layers)]);
      const oncall = await api(`/api/schedules/${name}/oncall`);
      expect(oncall).toMatchObject({ name: 'Ece', number: '5327770000' });
      await open('/panel/overview');
      expect(await text(await onScreen(`[data-testid=oncall] dd[data-schedule="${name}"]`))).toContain('Ece 5327770000');
      await open(`${base}/schedules`);
      expect(await text(await onScreen(`section[data-schedule="${name}"] [data-testid=oncall-now]`))).toContain('Ece 5327770000');
    }, 60_000);

    test('heartbeats: create (ping URL once), list with state, pause, resume, delete', async () => {
      const name = n('nightly');
      const heartbeat = async () => ((await api('/api/heartbeats')).heartbeats as { name: string; state: string }[]).find((h) => h.name === name);
      await open(`${base}/heartbeats`);
      await type('#hb-name', name);
      await type('#hb-interval', '3600');
      await type('#hb-to', '5321111111');
      await press('#new-heartbeat ~ form button[type=submit]');
      const url = await text('#ping-url');
      expect(url).toMatch(new RegExp(`^${server.url}/heartbeat/[0-9A-Za-z]{32}$`));
      expect((await fetch(url)).status).toBe(200);
      expect((await heartbeat())?.state).toBe('up');
      await open(`${base}/heartbeats`);
      expect(await b.page.getAttribute(`tr[data-heartbeat="${name}"]`, 'data-state')).toBe('up');
      expect(await text(`tr[data-heartbeat="${name}"] td[data-label="Last ping"]`)).not.toBe('never');
      expect(await b.page.locator('#ping-url').count()).toBe(0); // shown once

      await press(`tr[data-heartbeat="${name}"] form[action$="/pause"] button`);
      expect((await heartbeat())?.state).toBe('paused');
      await press(`tr[data-heartbeat="${name}"] form[action$="/resume"] button`);
      expect((await heartbeat())?.state).not.toBe('paused');
      // The delete asks first.
      await press(`tr[data-heartbeat="${name}"] form[action$="/delete"] button`);
      expect(await heartbeat()).toBeDefined();
      await press('#confirm button[type=submit]');
      expect(await heartbeat()).toBeUndefined();
    }, 60_000);

    test('maintenance windows: create, list, delete', async () => {
      const reason = n('db upgrade');
      await open(`${base}/maintenance`);
      await type('#mw-start', '2099-01-01T22:00');
      await type('#mw-end', '2099-01-02T01:00');
      await type('#mw-match', 'key=db-\nsource=alertmanager');
      await type('#mw-reason', reason);
      await press('section:has(#mw-start) button[type=submit]');
      const windows = async () => (await api('/api/maintenance')).windows as { id: string; reason: string; match: string[] }[];
      const mw = (await windows()).find((w) => w.reason === reason)!;
      expect(mw).toBeDefined();
      expect(await b.page.locator(`tr[data-window="${mw.id}"]`).count()).toBe(1);
      await press(`tr[data-window="${mw.id}"] button`);
      expect(await b.page.locator(`tr[data-window="${mw.id}"]`).count()).toBe(0);
      expect((await windows()).map((w) => w.id)).not.toContain(mw.id);
    }, 60_000);

    /** An alert through the API (source `api`) or the webhook (source `webhook`), keyed so the answer names it. */
    async function raise(via: 'api' | 'webhook', message: string): Promise<{ alertId: string; callId: string }> {
      const body = { phone_number: '5321234567', error_message: message, alert_key: message };
      const r =
        via === 'api'
          ? await fetch(`${server.url}/api/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: acc.apiKey, api_secret: acc.apiSecret, ...body }) })
          : await fetch(`${server.url}/webhook/receive?key=${acc.webhookKey}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const j = (await r.json()) as { alert_id: string; call_id?: string; call_ids?: string[] };
      expect(r.status, JSON.stringify(j)).toBe(200);
      return { alertId: j.alert_id, callId: j.call_id ?? j.call_ids![0]! };
    }
    const alert = async (id: string) => (await api(`/api/alerts/${id}`)).alert;
    const call = async (id: string) => (await api(`/api/calls/${id}`)).call;

    test('alerts: list by state and source, acknowledge, resolve (who did it recorded)', async () => {
      const viaApi = (await raise('api', n('disk full'))).alertId;
      const viaHook = (await raise('webhook', n('cpu hot'))).alertId;
      await open(`${base}/alerts`);
      await choose('#f-source', (await alert(viaHook)).source);
      await choose('#f-state', 'open');
      await press('form.filters button[type=submit]');
      const shown = await b.page.locator('tr[data-alert-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-alert-id')));
      expect(shown).toContain(viaHook);
      expect(shown).not.toContain(viaApi);

      await press(`tr[data-alert-id="${viaHook}"] button[data-action=acknowledge]`);
      expect(await alert(viaHook)).toMatchObject({ state: 'acknowledged', acknowledged_by: 'panel:admin' });
      expect(await text(`tr[data-alert-id="${viaHook}"] [data-testid=alert-by]`)).toContain('panel:admin');
      await open(`${base}/alerts?state=open`);
      await press(`tr[data-alert-id="${viaApi}"] button[data-action=resolve]`);
      // Who resolved it is the alert's state reason (the alert JSON has no resolved_by), on its page too.
      expect(await alert(viaApi)).toMatchObject({ state: 'resolved', state_reason: 'resolved by panel:admin' });
      expect(await text(`tr[data-alert-id="${viaApi}"] [data-testid=alert-by]`)).toBe('resolved by panel:admin');
      await press(`tr[data-alert-id="${viaApi}"] a[href$="/alerts/${viaApi}"]`);
      expect(await text('#alert-detail')).toContain('resolved by panel:admin');
    }, 60_000);

    test("calls: list, one call's events", async () => {
      const { alertId, callId } = await raise('api', n('calls row'));
      // Acknowledged over the API: the waiting call is cancelled, an event the call's page lists.
      await api(`/api/alerts/${alertId}/acknowledge`, { method: 'POST' });
      await open(`${base}/calls`);
      const row = b.page.locator(`tr[data-call-id="${callId}"]`);
      expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('cancelled');
      await press(row.locator('a[data-testid=call-page]'));
      const events = (await call(callId)).events as { to: string }[];
      expect(events.map((e) => e.to)).toEqual(['cancelled']);
      expect(await b.page.locator('#test-call-status li[data-to]').evaluateAll((els) => els.map((e) => e.getAttribute('data-to')))).toEqual(['cancelled']);
    }, 60_000);

    test("an alert's page: its calls with their events, who answered, the audio; its texts", async () => {
      const { alertId, callId } = await raise('api', n('answered'));
      // The dialer's part, written by hand (no trunk here): rung, answered by a person who pressed 1.
      const t = Date.now();
      const db = dir.database();
      try {
        await db.run(`UPDATE calls SET state = 'acknowledged', attempts = 1, last_sip_code = 200, answered_at = ${t + 2000}, answered_by = 'human', finished_at = ${t + 9000}, acknowledged_at = ${t + 8000} WHERE id = '${callId}'`);
        await db.run(
          `INSERT INTO call_events (call_id, at, attempt, from_state, to_state, sip_code, reason, answered_by) VALUES
           ('${callId}', ${t + 500}, 1, 'dialing', 'ringing', 180, NULL, NULL),
           ('${callId}', ${t + 2000}, 1, 'ringing', 'answered', 200, NULL, 'human'),
           ('${callId}', ${t + 8000}, 1, 'answered', 'acknowledged', NULL, NULL, NULL)`,
        );
        // The second path's part (no modem here): a text sent for the alert.
        await db.run(`INSERT INTO alert_texts (alert_id, account_id, person_id, type, address, detail, at) VALUES ('${alertId}', '${acc.accountId}', NULL, 'sms.sent', '5321234567', 'gsm1', ${t + 600})`);
      } finally {
        await db.close();
      }
      await open(`${base}/alerts`);
      await press(`tr[data-alert-id="${alertId}"] a[href$="/alerts/${alertId}"]`);
      const events = b.page.locator(`[data-call-events="${callId}"]`);
      // The key's default policy (set above) adds its own calls: this one is the request's.
      const fromApi = ((await alert(alertId)).calls as { id: string }[]).find((c) => c.id === callId);
      expect(fromApi).toMatchObject({ answered_by: 'human' });
      expect(await events.locator('li[data-to]').evaluateAll((els) => els.map((e) => e.getAttribute('data-to')))).toEqual((fromApi as unknown as { events: { to: string }[] }).events.map((e) => e.to));
      expect(await events.locator('li[data-to=answered]').getAttribute('data-answered-by')).toBe('human');
      await onScreen(events.locator('audio'));
      expect(await events.locator('audio').getAttribute('src')).toBe(`${base}/calls/${callId}/audio.wav`);
      expect((await alert(alertId)).events).toMatchObject([{ type: 'sms.sent', address: '5321234567', detail: 'gsm1' }]);
      expect(await text(await onScreen('#alert-texts-table tr[data-text-type="sms.sent"]'))).toContain('5321234567');
    }, 60_000);

    // The row "import from Opsgenie or PagerDuty": the panel's form plans (nothing written),
    // applies from the plan with the key typed again, and checks; the CLI sees what it wrote.
    // The Opsgenie stand-in is reached by the administrator's "other API URL".
    test('import: plan, apply and check from the Import page', async () => {
      const target = dir.cliJson(['account', 'create', '--name', n('import'), '--plan', 'starter']).id as string;
      const og = startOpsgenieStandIn();
      try {
        await open(`/panel/a/${target}/import`);
        await choose('#import-source', 'opsgenie');
        await type('#import-key', OPSGENIE_KEY);
        await type('#import-api-url', og.url);
        await press('[data-testid=import-form] button[value=plan]');
        // The plan's heading names the source; the plan is read, nothing written yet.
        expect(await text(await onScreen('#import-planned'))).toContain('Opsgenie');
        expect(dir.cliJson(['schedule', 'list', target])).toEqual([]);

        await type('#import-apply-key', OPSGENIE_KEY);
        await press('[data-testid=import-apply] button[value=apply]');
        const names = (dir.cliJson(['schedule', 'list', target]) as { name: string }[]).map((x) => x.name).sort();
        expect(names).toEqual(['noc', 'noc-backup']);
        const run = b.page.locator('[data-import-source=opsgenie]');
        await onScreen(run.locator('[data-testid=import-summary]'));
        expect(await b.page.content()).not.toContain(OPSGENIE_KEY);

        await choose('#import-source', 'opsgenie');
        await type('#import-key', OPSGENIE_KEY);
        await type('#import-api-url', og.url);
        await press('[data-testid=import-form] button[value=check]');
        // Each imported schedule against the source's own timeline, 14 days, as the CLI's --check
        // finds it (the stand-in's timeline is written apart from its rotations: some disagree).
        const checked = b.page.locator('[data-testid=import-check] > li');
        await onScreen(checked.first().locator('strong'));
        const shown = await checked.evaluateAll((lis) => lis.map((li) => [li.getAttribute('data-schedule'), li.getAttribute('data-agrees')]));
        const keyFile = join(dir.dir, `og-${width}.key`);
        writeFileSync(keyFile, `${OPSGENIE_KEY}\n`);
        const cli = await dir.cliAsync(['import', 'opsgenie', target, '--api-url', og.url, '--api-key-file', keyFile, '--check', '--json']);
        const check = JSON.parse(cli.stdout) as { schedules: { schedule: string; why?: string; disagreements: unknown[] }[] };
        expect(shown).toEqual(check.schedules.map((x) => [x.schedule, String(x.why === undefined && x.disagreements.length === 0)]));
        expect(shown.map(([name]) => name).sort()).toEqual(['noc', 'noc-backup']);
      } finally {
        og.stop();
      }
    }, 60_000);

    test('a test call', async () => {
      await open(`${base}/test-call`);
      await type('#tc-number', '05337654321');
      await type('#tc-text', n('test call'));
      await press('main form button[type=submit]');
      expect(await b.page.getAttribute('#test-call-status', 'data-state')).toBe('queued');
      const callId = new URL(b.page.url()).searchParams.get('call')!;
      expect(await call(callId)).toMatchObject({ state: 'queued', phone_number: '5337654321' });
    }, 60_000);

    test('trunks: state, last self-test, a "run self-test now" button', async () => {
      await open('/panel/trunks');
      const row = b.page.locator('tr[data-trunk="pbx"]');
      // The same state /healthz reports (it cannot come up here, so it stays put between the two reads).
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { checks: { trunks: Record<string, string>; sms: { via: string } } };
      expect(await row.locator('[data-state]').first().getAttribute('data-state')).toBe(health.checks.trunks.pbx);
      // Below the trunks, the second path as /healthz checks.sms sees it.
      expect(await b.page.getAttribute('[data-testid=second-path]', 'data-via')).toBe(health.checks.sms.via);
      expect(await text(row.locator('[data-testid="last-self-test-pbx"]'))).toContain('never run');
      await onScreen(row.locator('form[action$="/self-test"] button'));
      expect(dir.cliJson(['self-test', 'list'])).toEqual([]);
    }, 60_000);

    test('voice desk: a new PIN (shown once), its policy', async () => {
      const policy = n('desk');
      const { id } = dir.cliJson(['policy', 'create', acc.accountId, '--name', policy, '--step', '5328880000']) as { id: string };
      await open(`${base}/desk`);
      // A new PIN asks first: the old one stops working.
      await press('form[action$="/desk/pin"] button');
      await press('#confirm button[type=submit]');
      const pin = await text('#desk-pin');
      expect(pin).toMatch(/^\d{8}$/);
      const db = dir.database();
      try {
        const row = (await db.query('SELECT pin_hash FROM voice_desk WHERE account_id = ?').get(acc.accountId)) as { pin_hash: string };
        expect(await Bun.password.verify(pin, row.pin_hash)).toBe(true);
      } finally {
        await db.close();
      }
      await open(`${base}/desk`);
      expect(await b.page.locator('#desk-pin').count()).toBe(0);

      await choose('#desk-policy-select', id);
      await press('form[action$="/desk/policy"] button');
      // The CLI sees it: the policy is now used by the desk, so its delete is refused.
      expect(cliFails(['policy', 'delete', acc.accountId, policy])).toContain('voice desk');
    }, 60_000);

    test('callbacks: URL, secret', async () => {
      const url = `https://hooks.example.com/voice-${width}`;
      await open(`${base}/callbacks`);
      await type('#callback_url', url);
      await press('form:has(#callback_url) button[type=submit]');
      expect(await text('#callback-secret')).toMatch(/^vcs_/);
      expect(await text('#callback-current')).toContain(url);
      const db = dir.database();
      try {
        expect(await db.query('SELECT callback_url FROM accounts WHERE id = ?').get(acc.accountId)).toEqual({ callback_url: url });
      } finally {
        await db.close();
      }
    }, 60_000);

    test('credit and usage', async () => {
      await open(`${base}/credit`);
      const cli = dir.cliJson(['credit', 'show', acc.accountId]);
      expect(Number(await text('[data-testid=credit-used]'))).toBe(cli.used);
      expect(Number(await text('[data-testid=credit-remaining]'))).toBe(cli.remaining);
      expect(await text('[data-testid=credit-monthly]')).toContain(String(cli.monthly_credit));
      expect(cli.used).toBeGreaterThan(0);
      await onScreen('svg.chart');
    }, 60_000);

    test('the configuration in effect: read-only, secrets masked', async () => {
      await open('/panel/settings');
      const table = b.page.locator('#settings-table');
      const all = await text(table);
      expect(all).toContain('sip.trunks[0].password');
      expect(all).toContain('••••••••');
      expect(await b.page.content()).not.toContain(TRUNK_SECRET);
      expect(await table.locator('input, select, textarea, button').count()).toBe(0);
      // The same configuration `config check` prints, its secrets masked there too.
      const rows = new Map(
        (await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('code')].map((c) => c.textContent ?? '')))).map(([k, v]) => [k!, v!]),
      );
      const checked = dir.cli(['config', 'check']);
      expect(checked.status, checked.stderr).toBe(0);
      const config = JSON.parse(checked.stdout);
      expect(checked.stdout).not.toContain(TRUNK_SECRET);
      expect(rows.get('sip.trunks[0].server')).toBe(JSON.stringify(config.sip.trunks[0].server));
      expect(rows.get('panel.language')).toBe(JSON.stringify(config.panel.language));
      expect(rows.get('self_test.number')).toBe(JSON.stringify(config.self_test.number));
      expect(rows.get('store.path')).toBe(JSON.stringify(config.store.path));
    }, 60_000);

    // The row "one's own panel password; an administrator's lost one": one's own under Password,
    // another administrator's lost one reset on the Administrators page (made there too, listed
    // by `admin list`). Last in this width's run.
    test("passwords: one's own, in the panel", async () => {
      const next = `admin-password-${width}`;
      await open('/panel/password');
      await type('#current_password', adminPassword);
      await type('#new_password', next);
      await type('#new_password_again', next);
      await press('main form button[type=submit]');
      expect(await notice()).toContain('Your password has been changed');
      const old = adminPassword;
      adminPassword = next;
      expect(await loginStatus(ADMIN.user, old)).toBe(401);
      expect(await loginStatus(ADMIN.user, next)).toBe(303);

      const night = n('night.ops');
      await open('/panel/admins');
      await type('#username', night);
      await type('#password', 'night-password-1');
      await press('section[aria-labelledby=new-admin] button[type=submit]');
      const made = (dir.cliJson(['admin', 'list']) as { id: string; username: string }[]).find((a) => a.username === night);
      expect(made).toBeDefined();
      await press(`tr[data-user-id="${made!.id}"] form button`);
      await press('#confirm button[type=submit]');
      const reset = await text('#reset-password');
      expect(await loginStatus(night, 'night-password-1')).toBe(401);
      expect(await loginStatus(night, reset)).toBe(303);
    }, 60_000);
  });
}
