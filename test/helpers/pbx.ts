import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths';
import { lowerSessionToOurNiceness } from './autogroup';
import { freePort } from './ports';

const PEERS = join(ROOT, 'test', 'peers');

export interface Peer {
  port: number;
  dir: string;
  output(): string;
  /** SIGTERM to the process group we started (the peer and its workers), then wait for it. */
  stop(): Promise<void>;
  /**
   * SIGSTOP / SIGCONT to that group: a peer gone silent with its sockets still bound (no
   * answer, no ICMP), as a hung PBX or one dropping packets looks from outside.
   */
  freeze(): void;
  thaw(): void;
}

export function fill(template: string, values: Record<string, string | number>): string {
  let text = readFileSync(template, 'utf8');
  for (const [k, v] of Object.entries(values)) text = text.replaceAll(`{{${k}}}`, String(v));
  return text;
}

export function run(cmd: string, args: string[], dir: string, port: number, ready: RegExp): Promise<Peer> {
  // Its own process group: kamailio forks workers, and a main process that is slow to stop
  // (seen: > 5 s under load) and then SIGKILLed leaves them running, holding the port.
  const child: ChildProcess = spawn(cmd, args, { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal); // the group we started, nothing else
    } catch {
      // ESRCH: the group is gone already
    }
  };
  let out = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${out}`)), 10_000);
    const onData = (d: Buffer) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(timer);
        // detached is a session of its own (setsid, done by now that it speaks): at scripts/test's
        // lower priority it is lowered with us (test/helpers/autogroup.ts).
        void lowerSessionToOurNiceness({ pid: child.pid! });
        resolve({
          port,
          dir,
          output: () => out,
          freeze: () => signalGroup('SIGSTOP'),
          thaw: () => signalGroup('SIGCONT'),
          async stop() {
            signalGroup('SIGCONT'); // a frozen peer would only act on SIGTERM once thawed
            signalGroup('SIGTERM');
            // A peer that ignores SIGTERM must not outlive its test and disturb the next one.
            const timer = setTimeout(() => signalGroup('SIGKILL'), 5000);
            await exited;
            clearTimeout(timer);
            signalGroup('SIGKILL'); // workers whose main process is already gone
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with ${code}: ${out}`));
    });
  });
}

/**
 * kamailio as the PBX on 127.0.0.1 (UDP and TCP on one port), relaying every INVITE to
 * `target`. `auth`: 407 for INVITE/BYE, 401 for REGISTER, 403 for a wrong password;
 * `qop`: the challenges ask for qop=auth (RFC 2617 §3.2.1), else the RFC 2069 form.
 * Accepted credentials are logged ("accepted METHOD credentials: …").
 */
export async function startKamailio(o: {
  target: string;
  auth: boolean;
  user: string;
  password: string;
  qop?: boolean;
  /** SIP over TLS as well, on `tlsPort`, presenting this certificate (its tls module). */
  tls?: { certFile: string; keyFile: string };
}): Promise<Peer & { tlsPort: number }> {
  const port = await freePort();
  const tlsPort = o.tls ? await freePort() : 0;
  const dir = mkdtempSync(join(tmpdir(), 'va-kamailio-'));
  const cfg = join(dir, 'kamailio.cfg');
  const tls = { tls_port: tlsPort, tls_cert: o.tls?.certFile ?? '', tls_key: o.tls?.keyFile ?? '' };
  writeFileSync(cfg, fill(join(PEERS, 'kamailio', 'kamailio.cfg'), { port, target: o.target, user: o.user, password: o.password, qop: o.qop ? 1 : 0, ...tls }));
  const args = ['-f', cfg, '-DD', '-E', '-m', '64', '-M', '8', '-Y', dir, '-w', dir];
  if (o.auth) args.push('-A', 'WITH_AUTH');
  if (o.tls) args.push('-A', 'WITH_TLS');
  const peer = await run('kamailio', args, dir, port, /Listening on/);
  await untilAnswersOptions(port); // the workers fork after the banner
  return { ...peer, tlsPort };
}

export async function untilAnswersOptions(port: number): Promise<void> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const me = s.address().port;
  let answered = false;
  s.on('message', (m) => (answered ||= m.toString().startsWith('SIP/2.0 200')));
  try {
    for (let i = 0; i < 100 && !answered; i++) {
      const options = [
        `OPTIONS sip:127.0.0.1:${port} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${me};branch=z9hG4bKping${i};rport`,
        'From: <sip:ping@127.0.0.1>;tag=p',
        `To: <sip:127.0.0.1:${port}>`,
        `Call-ID: ping-${me}-${i}`,
        'CSeq: 1 OPTIONS',
        'Max-Forwards: 5',
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      s.send(options, port, '127.0.0.1');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    s.close();
  }
  if (!answered) throw new Error(`kamailio on ${port} does not answer OPTIONS`);
}

/**
 * baresip answering calls for `user` at once and recording what it hears (sndfile module:
 * `*-dec.wav`, named by the second, so record one call at a time).
 */
export async function startBaresip(o: {
  user: string;
  codec: 'PCMU' | 'PCMA';
  /** SRTP keyed by SDES, mandatory (its srtp module, `mediaenc=srtp-mand`): plain RTP is refused. */
  srtp?: boolean;
  /**
   * A WAV file it sends once answered instead of its 440 Hz tone (its aufile module; 48 kHz,
   * 2 channels, 16-bit, as ausrc_srate/ausrc_channels say: baresipWav makes one).
   */
  play?: string;
}): Promise<Peer & { recordDir: string }> {
  const port = await freePort();
  const rtp = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'va-baresip-'));
  const recordDir = join(dir, 'rec');
  mkdirSync(recordDir);
  const values = {
    port,
    record_dir: recordDir,
    rtp_low: rtp,
    rtp_high: rtp + 20,
    user: o.user,
    codec: o.codec,
    modules: [o.srtp ? 'module\t\t\tsrtp.so' : '', o.play ? 'module\t\t\taufile.so' : ''].join('\n'),
    audio_source: o.play ? `aufile,${o.play}` : 'ausine,440',
    account_params: o.srtp ? ';mediaenc=srtp-mand' : '',
  };
  writeFileSync(join(dir, 'config'), fill(join(PEERS, 'baresip', 'config'), values));
  writeFileSync(join(dir, 'accounts'), fill(join(PEERS, 'baresip', 'accounts'), values));
  const peer = await run('baresip', ['-f', dir], dir, port, /baresip is ready/);
  return { ...peer, recordDir };
}

/**
 * 8 kHz µ-law (a clip of test/fixtures/amd) as the WAV startBaresip's `play` takes, in `dir`,
 * followed by `silenceS` of silence: baresip hangs up when its file ends, and the far end of a
 * test should hang up when the appliance does, not before.
 */
export function baresipWav(ulaw: Uint8Array, dir: string, name: string, silenceS = 120): string {
  const path = join(dir, `${name}.wav`);
  execFileSync('sox', ['-t', 'raw', '-r', '8000', '-e', 'u-law', '-b', '8', '-c', '1', '-', '-r', '48000', '-c', '2', '-b', '16', '-e', 'signed', path, 'pad', '0', String(silenceS)], { input: ulaw });
  return path;
}
