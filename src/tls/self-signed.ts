import { existsSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError } from '../log';
import { failure, type TlsResult } from './certificate';
import type { CertificateNames } from './certificate-names';

/** Where `http.tls = "self-signed"` keeps its certificate: `<data folder>/tls/`. */
export function selfSignedFiles(dataDir: string): { certFile: string; keyFile: string } {
  return { certFile: join(dataDir, 'tls', 'cert.pem'), keyFile: join(dataDir, 'tls', 'key.pem') };
}

/**
 * Makes the self-signed certificate on the first start; later starts find cert.pem and reuse
 * it (the same fingerprint, so a pinned client keeps working). A key without its certificate
 * is a first start cut short and is made again; a certificate without its key is left for
 * the load to report, never silently replaced. The key is written 0600 in a 0700 folder,
 * each file under a temporary name and renamed, so a crash never leaves half a file.
 */
export async function ensureSelfSigned(dataDir: string, names: CertificateNames): Promise<TlsResult<{ certFile: string; keyFile: string; created: boolean }>> {
  const files = selfSignedFiles(dataDir);
  if (existsSync(files.certFile)) return { ok: true, value: { ...files, created: false } };
  try {
    // Loaded only when a certificate is made: the library is not needed on any other start.
    const { makeSelfSignedCertificate } = await import('./make-certificate');
    const made = await makeSelfSignedCertificate(names);
    await mkdir(join(dataDir, 'tls'), { recursive: true, mode: 0o700 });
    await writeAtomically(files.keyFile, made.key, 0o600);
    await writeAtomically(files.certFile, made.cert, 0o644);
    return { ok: true, value: { ...files, created: true } };
  } catch (e) {
    return failure('TLS_UNWRITABLE', `cannot make the self-signed certificate in ${join(dataDir, 'tls')}: ${describeError(e)}`);
  }
}

async function writeAtomically(path: string, text: string, mode: number): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode });
  await chmod(temporary, mode); // the mode given to writeFile is narrowed by the umask, never widened
  await rename(temporary, path);
}
