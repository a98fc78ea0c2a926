import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applianceDir, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { launchBrowser, shot, type TestBrowser } from '../helpers/browser';
import { BINARY } from '../helpers/paths';
import { makeTestCa, type IssuedCertificate } from '../helpers/test-ca';

/**
 * The panel in Chromium over the appliance's own HTTPS (docs/https.md "HTTPS"), with
 * http.plain_listen beside it. Chromium trusts exactly this test's server key
 * (--ignore-certificate-errors-spki-list with its SPKI hash), not certificate errors in
 * general: any other certificate would still be refused.
 */
const ADMIN = { user: 'admin', password: 'admin-password-1' };

let dir: ApplianceDir;
let server: RunningAppliance;
let plainUrl = '';
let cert: IssuedCertificate;
let browser: TestBrowser;

beforeAll(async () => {
  cert = makeTestCa().issue('panel');
  dir = applianceDir({
    http: { tls_cert_file: cert.certFile, tls_key_file: cert.keyFile, plain_listen: '127.0.0.1:0', hsts: true },
    panel: { language: 'en' },
  });
  const made = spawnSync(BINARY, ['--config', dir.configPath, 'admin', 'create', '--username', ADMIN.user, '--password-stdin'], {
    cwd: dir.dir,
    input: `${ADMIN.password}\n`,
    encoding: 'utf8',
  });
  expect(made.status, made.stderr).toBe(0);
  dir.cliJson(['account', 'create', '--name', 'Acme', '--plan', 'starter']);
  server = await dir.start();
  plainUrl = /"plainUrl":"(http:\/\/[^"]+)"/.exec(server.output())![1]!;
  browser = await launchBrowser(undefined, [`--ignore-certificate-errors-spki-list=${cert.spkiHash}`]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('web panel over HTTPS in chromium', () => {
  test('the plain address sends the browser to HTTPS; login works and the session cookie is Secure', async () => {
    expect(server.url).toMatch(/^https:\/\//);
    // A bookmark of the plain address: the browser follows the redirect to the HTTPS panel.
    const first = await browser.page.goto(`${plainUrl}/panel/login`);
    expect(first!.status()).toBe(200);
    expect(browser.page.url()).toBe(`${server.url}/panel/login`);
    expect(first!.headers()['strict-transport-security']).toBe('max-age=31536000');

    await browser.page.fill('#login', ADMIN.user);
    await browser.page.fill('#password', ADMIN.password);
    const [answer] = await Promise.all([browser.page.waitForNavigation(), browser.page.click('button[type=submit]')]);
    expect(answer!.status()).toBe(200);
    expect(browser.page.url()).toBe(`${server.url}/panel/overview`);
    const session = (await browser.context.cookies(`${server.url}/panel/overview`)).find((c) => c.name === 'va_session');
    expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', path: '/panel' });
    await browser.page.screenshot({ path: shot('https-overview'), fullPage: true });
  });

  test('the examples on the keys page show the HTTPS address', async () => {
    await browser.page.click('header nav a[href="/panel/accounts"]');
    const accountId = (await browser.page.getAttribute('tr[data-account-id]', 'data-account-id'))!;
    await browser.page.goto(`${server.url}/panel/a/${accountId}/keys`);
    await browser.page.click('#create-keys ~ form button[type=submit]');
    await browser.page.waitForSelector('#example-webhook-url');
    expect((await browser.page.textContent('#example-webhook-url'))!.trim()).toMatch(new RegExp(`^${server.url}/webhook/receive\\?key=vwk_`));
  });
});
