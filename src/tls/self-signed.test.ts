import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCertificatePair } from './certificate';
import { ensureSelfSigned } from './self-signed';

const names = { dns: ['alerts-1', 'localhost'], ips: ['127.0.0.1', '192.0.2.10'] };

describe('ensureSelfSigned', () => {
  it('makes an ECDSA P-256 certificate for the names, valid 10 years, not a CA, its key 0600 in a 0700 folder', async () => {
    const data = mkdtempSync(join(tmpdir(), 'va-self-signed-'));
    const r = await ensureSelfSigned(data, names);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toEqual({ certFile: join(data, 'tls', 'cert.pem'), keyFile: join(data, 'tls', 'key.pem'), created: true });
    expect(statSync(r.value.keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'tls')).mode & 0o777).toBe(0o700);
    const cert = new X509Certificate(readFileSync(r.value.certFile));
    expect(cert.subjectAltName).toBe('DNS:alerts-1, DNS:localhost, IP Address:127.0.0.1, IP Address:192.0.2.10');
    expect(cert.ca).toBe(false);
    expect(cert.verify(cert.publicKey)).toBe(true); // signed by its own key
    expect(cert.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    const years = (cert.validToDate.getTime() - cert.validFromDate.getTime()) / (365.25 * 86_400_000);
    expect(years).toBeCloseTo(10, 1);
    expect(cert.validFromDate.getTime()).toBeLessThan(Date.now());
    expect(createPrivateKey(readFileSync(r.value.keyFile)).asymmetricKeyType).toBe('ec');
    const pair = await loadCertificatePair(r.value.certFile, r.value.keyFile);
    expect(pair.ok).toBe(true);
  });

  it('reuses the certificate on later starts; a key left without its certificate is made again', async () => {
    const data = mkdtempSync(join(tmpdir(), 'va-self-signed-'));
    const first = await ensureSelfSigned(data, names);
    if (!first.ok) throw new Error(first.error.message);
    const cert = readFileSync(first.value.certFile, 'utf8');
    const again = await ensureSelfSigned(data, { dns: ['renamed'], ips: ['127.0.0.1'] });
    expect(again).toEqual({ ok: true, value: { ...first.value, created: false } });
    expect(readFileSync(first.value.certFile, 'utf8')).toBe(cert);
    rmSync(first.value.certFile);
    const remade = await ensureSelfSigned(data, names);
    expect(remade.ok && remade.value.created).toBe(true);
    expect(readFileSync(first.value.certFile, 'utf8')).not.toBe(cert);
  });

  it('a folder it cannot write is an error value naming the folder', async () => {
    const r = await ensureSelfSigned('/proc/voice-alert-nowhere', names);
    expect(r).toMatchObject({ ok: false, error: { code: 'TLS_UNWRITABLE' } });
    expect(!r.ok && r.error.message).toMatch(/^cannot make the self-signed certificate in \/proc\/voice-alert-nowhere\/tls: /);
  });
});
