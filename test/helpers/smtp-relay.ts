import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
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
 * `'smtps'` is TLS from the first byte, `'none'` plain SMTP. With `auth` (STARTTLS only), the
 * relay is test/peers/smtp/auth_relay.py: AUTH offered once TLS is up, with the mechanisms
 * named, and required before MAIL.
 */
export interface SmtpRelay {
  url: string;
  port: number;
  /** `login`: the AUTH login the message was sent under (null without AUTH). */
  messages(): { mail_from: string; rcpt_tos: string[]; data: string; tls: boolean; login: string | null }[];
  /** Each AUTH attempt, in order (a relay with `auth` only). */
  logins(): { mechanism: string; login: string | null; success: boolean }[];
  stop(): Promise<void>;
}

export interface SmtpRelayOptions {
  tls: 'none' | 'starttls' | 'smtps';
  certFile?: string;
  keyFile?: string;
  auth?: { username: string; password: string; mechanisms?: ('PLAIN' | 'LOGIN')[] };
}

export async function startSmtpRelay(options: SmtpRelayOptions): Promise<SmtpRelay> {
  const dir = mkdtempSync(join(tmpdir(), 'va-smtp-'));
  const port = await freePort();
  const tlsArgs =
    options.tls === 'starttls' ? ['--tlscert', options.certFile!, '--tlskey', options.keyFile!] : options.tls === 'smtps' ? ['--smtpscert', options.certFile!, '--smtpskey', options.keyFile!] : [];
  if (options.auth && options.tls !== 'starttls') throw new Error('the relay with AUTH speaks STARTTLS only');
  const peers = join(ROOT, 'test', 'peers', 'smtp');
  const command = options.auth
    ? [join(peers, 'auth_relay.py'), String(port), options.certFile!, options.keyFile!, options.auth.username, options.auth.password, (options.auth.mechanisms ?? ['PLAIN', 'LOGIN']).join(','), dir]
    : ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, ...tlsArgs, '-c', 'capture_relay.CaptureRelay', dir];
  // Debian's python3 (aiosmtpd is a Debian package), whatever python3 comes first on PATH.
  const proc = Bun.spawn(['/usr/bin/python3', ...command], {
    env: { ...process.env, PYTHONPATH: peers },
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
        .map((f) => ({ login: null, ...JSON.parse(readFileSync(join(dir, f), 'utf8')) })),
    logins: () =>
      existsSync(join(dir, 'auth.jsonl'))
        ? readFileSync(join(dir, 'auth.jsonl'), 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l))
        : [],
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}
