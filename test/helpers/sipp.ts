import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';
import { ROOT } from './paths';

export const SIPP_SCENARIOS = join(ROOT, 'test', 'peers', 'sipp');

export interface SippPeer {
  /** SIP port sipp listens on (on `ip`). */
  port: number;
  /** Resolves with sipp's exit code (0: every call passed the scenario). */
  exited: Promise<number | null>;
  output(): string;
  /** Ends this sipp (our own PID only) and waits for it. */
  stop(): Promise<void>;
}

/**
 * sipp as the far end (UAS) on loopback, `-i 127.0.0.1 -mi 127.0.0.1` (both, or sipp's media binds elsewhere),
 * or `-i ::1 -mi ::1` for IPv6 (sipp then writes [local_ip] in brackets, [media_ip]
 * bare, [local_ip_type]/[media_ip_type] as 6). `keys` fill the scenario's [keyword] fields.
 */
export async function startSipp(o: {
  scenario: string;
  calls?: number;
  keys?: Record<string, string | number>;
  transport?: 'udp' | 'tcp';
  /** Loopback address sipp binds for SIP and media; 127.0.0.1 unless an IPv6 test asks. */
  ip?: '127.0.0.1' | '::1';
  extra?: string[];
  /** `{{name}}` in the scenario: sipp checks status lines when it loads, so [keys] cannot fill them. */
  fill?: Record<string, string | number>;
  /** The SIP port to bind (a peer coming back where the appliance already points); else a free one. */
  port?: number;
}): Promise<SippPeer> {
  // freePort() finds a port free now; another process may take it before sipp binds it.
  // That race is the harness's, not the appliance's: pick new ports and start sipp again.
  for (let tries = 1; ; tries++) {
    try {
      return await startSippOnce(o);
    } catch (e) {
      if (tries >= 3 || !/Address already in use/.test(String((e as Error).message))) throw e;
    }
  }
}

async function startSippOnce(o: Parameters<typeof startSipp>[0]): Promise<SippPeer> {
  const keys = { codec_pt: 0, codec_name: 'PCMU', ring_ms: 100, listen_ms: 500, digit: 1, ...o.keys };
  // [keys] are filled per message; pauses, status lines and file names need {{keys}} at load.
  let text = readFileSync(join(SIPP_SCENARIOS, o.scenario), 'utf8');
  for (const [k, v] of Object.entries({ ...keys, ...o.fill })) text = text.replaceAll(`{{${k}}}`, String(v));
  const scenario = join(mkdtempSync(join(tmpdir(), 'va-sipp-')), o.scenario);
  writeFileSync(scenario, text);
  const ip = o.ip ?? '127.0.0.1';
  const port = o.port ?? (await freePort(ip));
  const mediaPort = await freePort(ip);
  const args = [
    '-sf', scenario,
    '-i', ip, '-mi', ip,
    '-p', String(port), '-mp', String(mediaPort),
    '-t', o.transport === 'tcp' ? 't1' : 'u1',
    '-m', String(o.calls ?? 1),
    '-nostdin', '-nd', '-bg',
    ...Object.entries(keys).flatMap(([k, v]) => ['-key', k, String(v)]),
    ...(o.extra ?? []),
  ];
  // Not -bg: we want the PID we started and its exit code.
  args.splice(args.indexOf('-bg'), 1);
  const child: ChildProcess = spawn('sipp', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // sipp binds before it reads the scenario's first step; give it a moment.
  if (o.transport === 'tcp') await waitForTcpListener(ip, port, () => child.exitCode !== null, () => out);
  else await waitForUdpListener(ip, port, () => child.exitCode !== null, () => out);
  return {
    port,
    exited,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForUdpListener(ip: string, port: number, gone: () => boolean, output: () => string): Promise<void> {
  const { createSocket } = await import('node:dgram');
  for (let i = 0; i < 100; i++) {
    if (gone()) throw new Error(`sipp exited at start: ${output()}`);
    const inUse = await new Promise<boolean>((resolve) => {
      const s = createSocket(ip.includes(':') ? 'udp6' : 'udp4');
      s.once('error', () => resolve(true));
      s.bind(port, ip, () => s.close(() => resolve(false)));
    });
    if (inUse) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`sipp did not bind ${port}`);
}

async function waitForTcpListener(ip: string, port: number, gone: () => boolean, output: () => string): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    if (gone()) throw new Error(`sipp exited at start: ${output()}`);
    const up = await new Promise<boolean>((resolve) => {
      const c = connect({ port, host: ip });
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`sipp did not listen on tcp ${port}`);
}
