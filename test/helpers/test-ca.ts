import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { connect } from 'node:tls';

/**
 * A private CA made with openssl, as an operator's own PKI would be (docs/https.md "HTTPS": your
 * own certificate). openssl runs in tests only; the appliance never shells out to it.
 */
export interface TestCa {
  dir: string;
  /** The root certificate a client is told to trust (`--cacert`, `tls_config.ca_file`). */
  caFile: string;
  /**
   * A server certificate for `names` (`IP:127.0.0.1`, `DNS:localhost`), signed by an
   * intermediate CA: `certFile` holds the leaf then the intermediate (a chain, as a public CA
   * delivers it), `keyFile` its key.
   */
  issue(name: string, names?: string[]): IssuedCertificate;
}

export interface IssuedCertificate {
  certFile: string;
  keyFile: string;
  /** SHA-256 of the leaf, `AB:CD:…` (what node:tls getPeerCertificate().fingerprint256 shows). */
  fingerprint: string;
  /** base64 SHA-256 of the leaf's public key: Chromium's --ignore-certificate-errors-spki-list. */
  spkiHash: string;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'va-ca-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=voice-alert test root', '-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', ...ec, '-keyout', 'int.key', '-out', 'int.csr', '-subj', '/CN=voice-alert test intermediate'], dir);
  writeFileSync(join(dir, 'int.ext'), 'basicConstraints=critical,CA:true,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n');
  openssl(['x509', '-req', '-in', 'int.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'int.pem', '-days', '30', '-extfile', 'int.ext'], dir);
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    issue(name, names = ['IP:127.0.0.1', 'DNS:localhost']) {
      openssl(['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir);
      writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${names.join(',')}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:false\n`);
      openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'int.pem', '-CAkey', 'int.key', '-CAcreateserial', '-out', `${name}.leaf.pem`, '-days', '30', '-extfile', `${name}.ext`], dir);
      const leaf = readFileSync(join(dir, `${name}.leaf.pem`), 'utf8');
      writeFileSync(join(dir, `${name}.pem`), leaf + readFileSync(join(dir, 'int.pem'), 'utf8'));
      const cert = new X509Certificate(leaf);
      const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
      return {
        certFile: join(dir, `${name}.pem`),
        keyFile: join(dir, `${name}.key`),
        fingerprint: cert.fingerprint256,
        spkiHash: createHash('sha256').update(spki).digest('base64'),
      };
    },
  };
}

/**
 * The certificate a TLS server presents to a new connection, as a client sees it (its SHA-256
 * fingerprint). With `ca` the chain and the name are verified too.
 */
export function peerFingerprint(host: string, port: number, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // SNI carries names only (RFC 6066 §3): none for an address.
    const socket = connect({ host, port, servername: isIP(host) ? undefined : host, ca, rejectUnauthorized: ca !== undefined }, () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256;
      socket.end();
      resolve(fingerprint);
    });
    socket.once('error', reject);
  });
}
