import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestCa, type IssuedCertificate, type TestCa } from '../../test/helpers/test-ca';
import { configSchema } from '../config';
import { checkTls } from './doctor-tls';

let ca: TestCa;
let cert: IssuedCertificate;
let other: IssuedCertificate;
beforeAll(() => {
  ca = makeTestCa();
  cert = ca.issue('doctor');
  other = ca.issue('other');
});

const own = (certFile: string, keyFile: string) => configSchema.parse({ http: { tls_cert_file: certFile, tls_key_file: keyFile } });

describe('voice-alert doctor: tls', () => {
  it('no line on plain HTTP', async () => {
    expect(await checkTls(configSchema.parse({}))).toEqual([]);
  });

  it('your own certificate: its fingerprint, names and expiry', async () => {
    const [check] = await checkTls(own(cert.certFile, cert.keyFile));
    expect(check).toMatchObject({ name: 'tls', status: 'ok' });
    expect(check!.detail).toMatch(new RegExp(`^${cert.certFile}: SHA-256 fingerprint ${cert.fingerprint}, public key sha256//\\S+, names IP Address:127\\.0\\.0\\.1, DNS:localhost, expires \\d{4}-`));
  });

  it('expired: fails, saying to renew and reload', async () => {
    const [check] = await checkTls(own(cert.certFile, cert.keyFile), new Date(Date.now() + 60 * 86_400_000));
    expect(check).toMatchObject({ status: 'fail', remedy: 'renew the certificate, then send SIGHUP (systemctl reload voice-alert)' });
    expect(check!.detail).toMatch(/^expired: /);
  });

  it('a key that is not the certificate\'s: fails with the reason and the keys to set', async () => {
    const [check] = await checkTls(own(cert.certFile, other.keyFile));
    expect(check).toMatchObject({ status: 'fail', detail: `${other.keyFile} is not the private key of the certificate in ${cert.certFile}` });
    expect(check!.remedy).toContain('http.tls_cert_file and http.tls_key_file');
  });

  it('self-signed: not made yet is fine (the first start makes it); a certificate without its key fails, saying to delete both', async () => {
    const data = mkdtempSync(join(tmpdir(), 'va-doctor-tls-'));
    const config = configSchema.parse({ http: { tls: 'self-signed' }, store: { path: join(data, 'voice-alert.db') } });
    expect(await checkTls(config)).toEqual([{ name: 'tls', status: 'ok', detail: `self-signed: made on the first start in ${join(data, 'tls')}` }]);
    mkdirSync(join(data, 'tls'));
    copyFileSync(cert.certFile, join(data, 'tls', 'cert.pem'));
    const [check] = await checkTls(config);
    expect(check).toMatchObject({ status: 'fail' });
    expect(check!.detail).toMatch(/^cannot read the certificate or its key: .*ENOENT/);
    expect(check!.remedy).toMatch(/^delete .*cert\.pem and .*key\.pem to make a new one on the next start/);
  });
});
