import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { keepAliveLoop } from '../helpers/keep-alive-client';
import { freePort } from '../helpers/ports';
import { docBlock, docSection } from '../helpers/docs';
import { makeTestCa, peerFingerprint, type IssuedCertificate, type TestCa } from '../helpers/test-ca';

// docs/https.md "HTTPS" against the compiled binary: the self-signed certificate, your own files
// and their renewal by SIGHUP, and http.plain_listen beside HTTPS.
const running: RunningAppliance[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) await a.stop();
});

async function start(dir: ApplianceDir, env: Record<string, string> = {}): Promise<RunningAppliance> {
  const app = await dir.start([], env);
  running.push(app);
  return app;
}

const portOf = (url: string) => Number(new URL(url).port);
/** The start line ("voice-alert listening") as JSON. */
const startLine = (app: RunningAppliance) =>
  JSON.parse(
    app
      .output()
      .split('\n')
      .find((l) => l.includes('"voice-alert listening"'))!,
  );

/** curl as a monitoring script runs it: verifies against `ca`, prints the status. */
function curl(url: string, ca: string, more: string[] = []): Promise<{ status: number | null; code: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('curl', ['-sS', '-m', '10', '--cacert', ca, '-o', '/dev/null', '-w', '%{http_code}', ...more, url]);
    let code = '';
    let stderr = '';
    child.stdout.on('data', (d) => (code += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, code, stderr }));
  });
}

const tlsCheck = (dir: ApplianceDir) => {
  const r = dir.cli(['doctor', '--json']);
  return (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string }[] }).checks.find((c) => c.name === 'tls');
};

describe('http.tls = "self-signed"', () => {
  it('made on the first start (no openssl on PATH) and reused after: curl --cacert with it verifies 127.0.0.1, the key is 0600, the fingerprint is in the start line and in doctor', async () => {
    const dir = applianceDir({ http: { tls: 'self-signed' } });
    // docs/https.md "HTTPS": made in the process (WebCrypto), never by running openssl: PATH names
    // a folder with every program of /usr/bin but openssl.
    const noOpenssl = mkdtempSync(join(tmpdir(), 'va-no-openssl-'));
    for (const name of readdirSync('/usr/bin')) if (name !== 'openssl') symlinkSync(join('/usr/bin', name), join(noOpenssl, name));
    const certFile = join(dir.dir, 'data', 'tls', 'cert.pem');
    const keyFile = join(dir.dir, 'data', 'tls', 'key.pem');
    expect(tlsCheck(dir)).toEqual({ name: 'tls', status: 'ok', detail: `self-signed: made on the first start in ${join(dir.dir, 'data', 'tls')}` });

    const first = await start(dir, { PATH: noOpenssl });
    expect(spawnSync('sh', ['-c', 'command -v openssl'], { env: { PATH: noOpenssl } }).status).not.toBe(0);
    expect(first.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await curl(`${first.url}/healthz`, certFile);
    expect(r).toEqual({ status: 0, code: '200', stderr: '' });
    const cert = new X509Certificate(readFileSync(certFile));
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    // The fingerprint users pin: in the start line, and what a TLS client sees.
    expect(startLine(first)).toMatchObject({ url: first.url, certificate: certFile, fingerprint: cert.fingerprint256 });
    expect(await peerFingerprint('127.0.0.1', portOf(first.url), readFileSync(certFile, 'utf8'))).toBe(cert.fingerprint256);
    // Pinned instead of copied (docs/https.md "HTTPS"): curl checks the logged key pin, and refuses
    // another.
    const pin = startLine(first).publicKeyPin as string;
    expect(pin).toMatch(/^sha256\/\/[A-Za-z0-9+/]{43}=$/);
    const pinned = spawnSync('curl', ['-sS', '-k', '--pinnedpubkey', pin, '-o', '/dev/null', '-w', '%{http_code}', `${first.url}/healthz`], { encoding: 'utf8' });
    expect([pinned.status, pinned.stdout]).toEqual([0, '200']);
    const otherPin = `sha256//${Buffer.alloc(32).toString('base64')}`;
    expect(spawnSync('curl', ['-sS', '-k', '--pinnedpubkey', otherPin, `${first.url}/healthz`]).status).toBe(90);
    expect(first.output()).toContain('"msg":"made a self-signed certificate"');
    await first.stop();
    running.length = 0;

    const second = await start(dir);
    expect(startLine(second).fingerprint).toBe(cert.fingerprint256);
    expect(second.output()).not.toContain('made a self-signed certificate');
    expect(await peerFingerprint('127.0.0.1', portOf(second.url))).toBe(cert.fingerprint256);
    expect((await curl(`${second.url}/healthz`, certFile)).code).toBe('200');

    const check = tlsCheck(dir)!;
    expect(check.status).toBe('ok');
    expect(check.detail).toContain(`SHA-256 fingerprint ${cert.fingerprint256}`);
    expect(check.detail).toContain('IP Address:127.0.0.1');
  });
});

describe('your own certificate (http.tls_cert_file, http.tls_key_file)', () => {
  let ca: TestCa;
  let first: IssuedCertificate;
  let second: IssuedCertificate;
  beforeAll(() => {
    ca = makeTestCa();
    first = ca.issue('first');
    second = ca.issue('second');
  });

  /** The files the configuration names, filled from an issued certificate the way a renewal tool replaces them. */
  function install(live: { cert: string; key: string }, from: { certFile: string; keyFile: string }) {
    for (const [source, target] of [
      [from.keyFile, live.key],
      [from.certFile, live.cert],
    ] as const) {
      copyFileSync(source, `${target}.new`);
      renameSync(`${target}.new`, target);
    }
  }

  function ownDir(http: Record<string, unknown> = {}) {
    const live = { cert: join(ca.dir, `live-${Math.random().toString(36).slice(2)}.pem`), key: '' };
    live.key = live.cert.replace(/\.pem$/, '.key');
    install(live, first);
    const dir = applianceDir({ http: { tls_cert_file: live.cert, tls_key_file: live.key, ...http } });
    return { dir, live };
  }

  it('is served with its chain and verified against the CA that issued it', async () => {
    const { dir } = ownDir();
    const app = await start(dir);
    expect(await curl(`${app.url}/healthz`, ca.caFile)).toEqual({ status: 0, code: '200', stderr: '' });
    expect(await peerFingerprint('127.0.0.1', portOf(app.url), readFileSync(ca.caFile, 'utf8'))).toBe(first.fingerprint);
    expect(startLine(app).fingerprint).toBe(first.fingerprint);
    // Trusting anything else fails: it is the certificate that is checked, not just "some TLS".
    const wrongCa = makeTestCa();
    expect((await curl(`${app.url}/healthz`, wrongCa.caFile)).status).toBe(60);
    expect(tlsCheck(dir)).toMatchObject({ status: 'ok', detail: expect.stringContaining(`SHA-256 fingerprint ${first.fingerprint}`) });
  });

  it('SIGHUP after a renewal serves the new certificate while requests keep being answered; a broken replacement keeps it', async () => {
    const { dir, live } = ownDir();
    const app = await start(dir);
    const port = portOf(app.url);
    const ca_ = readFileSync(ca.caFile, 'utf8');

    // Two kinds of client the whole time: keep-alive (like Alertmanager, browsers) and a new
    // connection per request (like curl in a Nagios command). Every request must get a 200.
    const failures: string[] = [];
    // docs/https.md "HTTPS": a brand-new connection the old listener accepted but that had sent no
    // byte yet when it stopped is reset (Bun's stop(false), measured on 1.4.5): at most one
    // such reset per certificate swapped, and nothing else. curl's 35 and 56 are a reset.
    const resets: string[] = [];
    let answered = 0;
    let done = false;
    // A keep-alive client with no retry, requests back to back: the connection is never idle
    // for long, so a server closing it under a request would show.
    const keepAlive = keepAliveLoop({ host: '127.0.0.1', port, ca: ca_, path: '/healthz', running: () => !done });
    const fresh = (async () => {
      while (!done) {
        const r = await curl(`${app.url}/healthz`, ca.caFile);
        if (r.code === '200') answered++;
        else if ((r.status === 35 || r.status === 56) && /reset by peer/.test(r.stderr)) resets.push(r.stderr);
        else failures.push(`curl: ${r.status} ${r.code} ${r.stderr}`);
      }
    })();

    await Bun.sleep(300);
    install(live, second);
    process.kill(app.process.pid!, 'SIGHUP');
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"msg":"SIGHUP: certificate reloaded"');
    await expect.poll(() => peerFingerprint('127.0.0.1', port, ca_), { timeout: 5000 }).toBe(second.fingerprint);
    await Bun.sleep(800); // past the replaced server's drain: every new connection is on the new certificate
    for (let i = 0; i < 5; i++) expect(await peerFingerprint('127.0.0.1', port, ca_)).toBe(second.fingerprint);

    // A broken replacement (a renewal that wrote half a file): logged, the certificate in use stays.
    writeFileSync(live.cert, readFileSync(second.certFile, 'utf8').slice(0, 200));
    process.kill(app.process.pid!, 'SIGHUP');
    await expect.poll(() => app.output(), { timeout: 5000 }).toContain('"msg":"SIGHUP: certificate not reloaded, the old one stays"');
    expect(app.output()).toMatch(/"code":"TLS_BAD_CERTIFICATE","error":"[^"]*live-[^"]*\.pem holds no PEM certificate/);
    await Bun.sleep(300);
    for (let i = 0; i < 5; i++) expect(await peerFingerprint('127.0.0.1', port, ca_)).toBe(second.fingerprint);
    // The key of another certificate: refused the same way.
    install(live, { certFile: first.certFile, keyFile: second.keyFile });
    process.kill(app.process.pid!, 'SIGHUP');
    await expect.poll(() => app.output().match(/certificate not reloaded/g)?.length ?? 0, { timeout: 5000 }).toBe(2);
    expect(app.output()).toContain('"code":"TLS_KEY_MISMATCH"');
    expect(await peerFingerprint('127.0.0.1', port, ca_)).toBe(second.fingerprint);

    await Bun.sleep(300);
    done = true;
    const [kept] = await Promise.all([keepAlive, fresh]);
    expect(failures).toEqual([]);
    expect(resets.length).toBeLessThanOrEqual(1); // one certificate was swapped
    expect(kept.failures).toEqual([]);
    expect(answered).toBeGreaterThan(20);
    expect(kept.answered).toBeGreaterThan(100);
    // It moved to the new certificate through a new connection, told by Connection: close.
    expect(kept.connections).toBeGreaterThan(1);
  }, 30_000);

  it('a certificate that does not load stops the start: exit 2, one line naming the file', () => {
    const { dir, live } = ownDir();
    install(live, { certFile: first.certFile, keyFile: second.keyFile });
    const r = dir.cli(['serve']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`voice-alert: cannot serve HTTPS: ${live.key} is not the private key of the certificate in ${live.cert}`);
  });

  it('http.plain_listen beside HTTPS: a webhook over plain HTTP queues a call, the panel redirects to the HTTPS address', async () => {
    const { dir } = ownDir({ plain_listen: '127.0.0.1:0', hsts: true });
    const cred = provision(dir);
    const app = await start(dir);
    const plainUrl = startLine(app).plainUrl as string;
    expect(plainUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(portOf(plainUrl)).not.toBe(portOf(app.url));

    const res = await fetch(`${plainUrl}/webhook/receive?key=${cred.webhookKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: '5321234567', error_message: 'disk full on db1' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBeNull(); // never over plain HTTP (RFC 6797 §7.2)
    const db = dir.database();
    try {
      expect(await db.query("SELECT phone_number FROM calls WHERE message = 'disk full on db1'").all()).toEqual([{ phone_number: '5321234567' }]);
    } finally {
      await db.close();
    }

    const panel = await fetch(`${plainUrl}/panel/login?next=x`, { redirect: 'manual' });
    expect(panel.status).toBe(307);
    expect(panel.headers.get('location')).toBe(`${app.url}/panel/login?next=x`);
    // Followed, it lands on the HTTPS panel, which says to stay on HTTPS.
    const https = await fetch(panel.headers.get('location')!, { tls: { ca: readFileSync(ca.caFile, 'utf8') } } as RequestInit);
    expect(https.status).toBe(200);
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });
});

/** docs/https.md "Tools that post over HTTPS …": the recipe under `**<title>**` there, as written. */
const tlsRecipe = (title: 'Prometheus Alertmanager' | 'curl') => docBlock(docSection('docs/https.md', '### Tools that post over HTTPS', '## Security'), title);

/** The recipe's placeholders made real: the appliance's address, the webhook key, the CA file. */
const localised = (text: string, o: { url: string; key: string; caFile: string }) =>
  text
    .replaceAll('https://voice-alert.lan:8443', o.url)
    .replaceAll('vwk_…', o.key)
    .replaceAll('/etc/prometheus/voice-alert-ca.pem', o.caFile)
    .replaceAll('/etc/ssl/voice-alert-ca.pem', o.caFile);

describe('the docs recipe for curl with --cacert (Nagios/Icinga commands, cron, CI)', () => {
  it('run by sh as written (the macros filled): a call queued over HTTPS', async () => {
    const ca = makeTestCa();
    const cert = ca.issue('curl-target');
    const dir = applianceDir({ http: { tls_cert_file: cert.certFile, tls_key_file: cert.keyFile } });
    const cred = provision(dir);
    const app = await start(dir);
    const line = localised(tlsRecipe('curl').trim(), { url: app.url, key: cred.webhookKey, caFile: ca.caFile })
      .replaceAll('$USER10$', cred.webhookKey)
      .replaceAll('$CONTACTPAGER$', '5321234571')
      .replaceAll('$HOSTNAME$', 'db7')
      .replaceAll('$HOSTSTATE$', 'DOWN');
    expect(line).toContain(`--cacert ${ca.caFile}`);
    const r = spawnSync('sh', ['-c', line], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', message: '1 call(s) queued' });
    const db = dir.database();
    try {
      expect(await db.query("SELECT message FROM calls WHERE phone_number = '5321234571'").all()).toEqual([{ message: 'db7 is DOWN' }]);
    } finally {
      await db.close();
    }
  });
});

describe('the real Alertmanager posting to the HTTPS webhook with tls_config.ca_file', () => {
  it.each([
    ['its own CA', () => {
      const ca = makeTestCa();
      const cert = ca.issue('alertmanager-target');
      return { dir: applianceDir({ http: { tls_cert_file: cert.certFile, tls_key_file: cert.keyFile } }), caFile: ca.caFile };
    }],
    // The self-signed certificate is its own CA: the copied cert.pem is the ca_file.
    ['the self-signed cert.pem', () => {
      const dir = applianceDir({ http: { tls: 'self-signed' } });
      return { dir, caFile: join(dir.dir, 'data', 'tls', 'cert.pem') };
    }],
  ])('queues a call (ca_file: %s)', async (_, setup) => {
    const { dir, caFile } = setup();
    const cred = provision(dir);
    const app = await start(dir);
    // The docs' receivers block as written (docs/https.md "Tools that post over HTTPS …"); a short
    // route for a test.
    const receivers = localised(tlsRecipe('Prometheus Alertmanager'), { url: app.url, key: cred.webhookKey, caFile });
    expect(receivers).toContain(`ca_file: ${caFile}`);
    const am = await startAlertmanager(['route:', '  receiver: voice', '  group_wait: 1s', receivers].join('\n'));
    try {
      const posted = await fetch(`${am.url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ labels: { alertname: 'DiskFull', instance: 'db7:9100' }, annotations: { summary: 'db7 disk full' } }]),
      });
      expect(posted.ok).toBe(true);
      const db = dir.database();
      try {
        await expect
          .poll(async () => db.query("SELECT phone_number FROM calls WHERE phone_number IN ('5321234567', '5321234568') ORDER BY phone_number").all(), { timeout: 20_000, interval: 200 })
          .toEqual([{ phone_number: '5321234567' }, { phone_number: '5321234568' }]);
      } finally {
        await db.close();
      }
    } finally {
      am.stop();
    }
  }, 40_000);
});

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

/** Debian's Alertmanager (as in integration-recipes.test.ts) on a free port with `config`. */
async function startAlertmanager(config: string): Promise<{ url: string; stop(): void }> {
  if (spawnSync(ALERTMANAGER, ['--version']).status !== 0) throw new Error(`${ALERTMANAGER} missing: apt-get install prometheus-alertmanager`);
  const amDir = mkdtempSync(join(tmpdir(), 'va-am-tls-'));
  writeFileSync(join(amDir, 'am.yml'), config + '\n');
  const port = await freePort();
  const child = spawn(
    ALERTMANAGER,
    [`--config.file=${join(amDir, 'am.yml')}`, `--storage.path=${join(amDir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address='],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${url}/-/ready`).catch(() => null))?.ok === true, { timeout: 20_000, interval: 100 }).toBe(true);
  return { url, stop: () => child.kill() };
}
