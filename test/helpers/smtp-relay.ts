import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths';
import { freePort } from './ports';
import { until } from './until';

/**
 * A real SMTP server from Debian (python3-aiosmtpd 1.4) as the LAN's relay, with
 * test/peers/smtp/capture_relay.py writing each message it takes to a folder.
 * `tls: 'starttls'` offers STARTTLS (and requires it before MAIL, as aiosmtpd does by default),
 * `'smtps'` is TLS from the first byte, `'none'` plain SMTP.
 */
export interface SmtpRelay {
  url: string;
  port: number;
  messages(): { mail_from: string; rcpt_tos: string[]; data: string; tls: boolean }[];
  stop(): Promise<void>;
}

export async function startSmtpRelay(options: { tls: 'none' | 'starttls' | 'smtps'; certFile?: string; keyFile?: string }): Promise<SmtpRelay> {
  const dir = mkdtempSync(join(tmpdir(), 'va-smtp-'));
  const port = await freePort();
  const tlsArgs =
    options.tls === 'starttls' ? ['--tlscert', options.certFile!, '--tlskey', options.keyFile!] : options.tls === 'smtps' ? ['--smtpscert', options.certFile!, '--smtpskey', options.keyFile!] : [];
  // Debian's python3 (aiosmtpd is a Debian package), whatever python3 comes first on PATH.
  const proc = Bun.spawn(['/usr/bin/python3', '-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, ...tlsArgs, '-c', 'capture_relay.CaptureRelay', dir], {
    env: { ...process.env, PYTHONPATH: join(ROOT, 'test', 'peers', 'smtp') },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  await until(
    'aiosmtpd listening',
    () =>
      new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }),
    10_000,
    50,
  );
  return {
    url: `${options.tls === 'smtps' ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    port,
    messages: () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8'))),
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}
