import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyToml } from 'smol-toml';
import { BINARY } from './paths';
import { openApplianceDatabase, type ApplianceDatabase } from './appliance-database';
import { onPostgres, testStoreUrl } from './postgres';

/**
 * The compiled binary, run as an operator would: its own folder, a TOML config, real
 * HTTP on 127.0.0.1 with a port the OS picks. Tests use `cli()` for the stable CLI.
 */
export interface RunningAppliance {
  dir: string;
  configPath: string;
  url: string;
  process: ChildProcess;
  /**
   * Everything the server printed, stdout (JSON log lines) and stderr (the first-start banner)
   * in the order it came: only ever appended to, so `output().slice(before)` is what came since.
   */
  output(): string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: the power cut. */
  kill(): Promise<void>;
}

export interface ApplianceDir {
  dir: string;
  configPath: string;
  cli(args: string[]): { status: number | null; stdout: string; stderr: string };
  /**
   * As `cli`, without blocking this process while the command runs: for a command run beside
   * something this test process itself serves (a modem simulated on a pseudo-terminal, a stand-in
   * API), which `cli`'s spawnSync would freeze for the command's whole run.
   */
  cliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }>;
  cliJson<T = any>(args: string[]): T;
  start(extraArgs?: string[], env?: Record<string, string>): Promise<RunningAppliance>;
  /** Where its store is: the SQLite file, and the PostgreSQL URL on the vitest project "postgres". */
  store: { path: string; url?: string };
  /** A look into its database (appliance-database.ts); close it when done. */
  database(): ApplianceDatabase;
}

export type ConfigOverrides = Record<string, Record<string, unknown>>;

/**
 * A fresh data folder and config file: loopback on a free port, no rate limit, the
 * database inside the folder; `overrides` are merged in section by section.
 */
export function applianceDir(overrides: ConfigOverrides = {}): ApplianceDir {
  const dir = mkdtempSync(join(tmpdir(), 'va-test-'));
  const configPath = join(dir, 'config.toml');
  const config: ConfigOverrides = {
    http: { listen: '127.0.0.1:0', rate_limit_per_minute: 0 },
    // On the vitest project "postgres", a fresh PostgreSQL database instead of the file.
    store: { path: join(dir, 'data', 'voice-alert.db'), ...(onPostgres ? { url: testStoreUrl() } : {}) },
    log: { level: 'info' },
    // No SIP OPTIONS probes unless a test asks: sipp takes each OPTIONS as a new call of its
    // scenario, which uses up its `-m` calls and leaves the real INVITE unanswered.
    sip: { options_interval_s: 0 },
    // Voicemail detection off unless a test asks (test/integration/amd.test.ts does, a silent
    // answer included): sipp's scenarios answer without audio, and the analysis would put
    // amd.initial_silence_ms before every message, and take their keys for a person's at once.
    amd: { enabled: false },
  };
  for (const [section, values] of Object.entries(overrides)) config[section] = { ...config[section], ...values };
  const store = config.store as { path: string; url?: string };
  writeFileSync(configPath, stringifyToml(config));
  const cli = (args: string[]) => {
    const r = spawnSync(BINARY, ['--config', configPath, ...args], { cwd: dir, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const cliAsync = (args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(BINARY, ['--config', configPath, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  return {
    dir,
    configPath,
    cli,
    cliAsync,
    cliJson(args) {
      const r = cli([...args, '--json']);
      if (r.status !== 0) throw new Error(`voice-alert ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
      return JSON.parse(r.stdout);
    },
    start: (extraArgs = [], env = {}) => startServer(dir, configPath, extraArgs, env),
    store: { path: store.path, url: store.url || undefined },
    database: () => openApplianceDatabase(store),
  };
}

function startServer(dir: string, configPath: string, extraArgs: string[], env: Record<string, string>): Promise<RunningAppliance> {
  const child = spawn(BINARY, ['--config', configPath, 'serve', ...extraArgs], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // Both streams in arrival order (output() above); `out` alone is read for the start line.
  let all = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}${err}`)), 10_000);
    child.stderr!.on('data', (d) => {
      err += d;
      all += d;
    });
    child.stdout!.on('data', (d) => {
      out += d;
      all += d;
      const m = /"url":"(https?:\/\/[^"]+)"/.exec(out);
      if (m && /voice-alert listening/.test(out)) {
        clearTimeout(timer);
        resolve({
          dir,
          configPath,
          url: m[1]!,
          process: child,
          output: () => all,
          stop: async () => {
            child.kill('SIGTERM');
            // A graceful stop that hangs is a bug to report, not a process to leave behind.
            let hung = false;
            const timer = setTimeout(() => {
              hung = true;
              child.kill('SIGKILL');
            }, 30_000);
            const code = await exited;
            clearTimeout(timer);
            if (hung) throw new Error(`voice-alert did not stop within 30 s of SIGTERM:\n${(out + err).slice(-4000)}`);
            return code;
          },
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}${err}`));
    });
  });
}

/** An account with credentials, made through the CLI as an operator would. */
export function provision(
  a: ApplianceDir,
  plan = 'starter',
  extra: string[] = [],
): { accountId: string; apiKey: string; apiSecret: string; webhookKey: string } {
  const acc = a.cliJson(['account', 'create', '--name', 'test', '--plan', plan, ...extra]);
  const k = a.cliJson(['keys', 'create', acc.id]);
  return { accountId: acc.id, apiKey: k.api_key, apiSecret: k.api_secret, webhookKey: k.webhook_key };
}
