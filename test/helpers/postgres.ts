import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { SQL } from 'bun';
import { openMigratedPostgres } from '../../src/store/sql/postgres/database';
import { lowerSessionToOurNiceness } from './autogroup';

/**
 * A throwaway PostgreSQL cluster for the tests and benchmarks: initdb in a temporary folder,
 * pg_ctl on a free port of 127.0.0.1, trust authentication for one role. PostgreSQL refuses
 * to run as root, so under root it runs as Debian's `postgres` user.
 */
export interface PostgresCluster {
  /** postgres://voicealert@127.0.0.1:PORT/ (add a database name). */
  baseUrl: string;
  dir: string;
  port: number;
  /** Stops the server and keeps its data (the database going away). */
  halt(): void;
  /** Starts it again on the same data and port. */
  resume(): void;
  /**
   * `pg_ctl restart -m fast`: every session ended (57P01), the server back on the same data and
   * port. Asynchronous: the test's own event loop (its clients, its timers) runs meanwhile, so
   * what it measures during the restart is the appliance's time, not the restart's.
   */
  restart(): Promise<void>;
  /** SIGSTOP to the server and every backend (a hung host: connections stay open, nothing answers). */
  freeze(): void;
  /** SIGCONT to what `freeze` stopped (nothing if it is not frozen). */
  thaw(): void;
  stop(): void;
}

export const PG_ROLE = 'voicealert';
/** A migrated, empty database every test database is copied from (CREATE DATABASE … TEMPLATE). */
export const PG_TEMPLATE = 'va_template';

export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .map(Number)
    .filter((v) => v >= 15)
    .sort((a, b) => b - a);
  return versions.length ? join(root, String(versions[0]), 'bin') : null;
}

const asRoot = process.getuid?.() === 0;

/** As `run`, without blocking the event loop while the command runs. */
function runAsync(bin: string, args: string[]): Promise<void> {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')} failed: ${out}`))));
  });
}

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
}

export function startPostgresCluster(port: number, settings: Record<string, string> = {}): PostgresCluster {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL 15 or later is not installed (apt install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'va-pg-'));
  if (asRoot) chownSync(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim()), -1);
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', PG_ROLE, '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  // 400 connections: two test files at a time, each with a store per test whose pool opens up to
  // store.pool_size connections, reached 200 in a full run (panel-alerts.test.ts now closes its own).
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=400', ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)];
  const log = join(dir, 'log');
  const postmasterPid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // pg_ctl starts the server in a session of its own (setsid), at every start and restart: under
  // scripts/test's nice 19 its backends would still take a core from the peer suites as a whole
  // session (autogroup.ts).
  const lowered = () => void lowerSessionToOurNiceness({ pid: postmasterPid() });
  const start = () => {
    withServerLog(log, () => run(join(bin, 'pg_ctl'), ['-D', data, '-o', options.join(' '), '-l', log, '-w', 'start']));
    lowered();
  };
  start();
  const baseUrl = `postgres://${PG_ROLE}@127.0.0.1:${port}/`;
  let frozen: number[] = [];
  return {
    baseUrl,
    dir,
    port,
    halt: () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']),
    resume: start,
    restart: () =>
      runAsync(join(bin, 'pg_ctl'), ['-D', data, '-o', options.join(' '), '-l', log, '-m', 'fast', '-w', 'restart']).then(lowered, (e: Error) => {
        throw withLogTail(e, log);
      }),
    freeze() {
      // The server's own PID and its children's: only the processes this cluster started.
      const postmaster = postmasterPid();
      frozen = [postmaster, ...childrenOf(postmaster)];
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw() {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          /* gone meanwhile */
        }
      }
      frozen = [];
    },
    stop() {
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** pg_ctl says only "Examine the log output": a failed start carries the server log's last lines. */
function withServerLog(log: string, start: () => void): void {
  try {
    start();
  } catch (e) {
    throw withLogTail(e as Error, log);
  }
}

function withLogTail(e: Error, log: string): Error {
  let tail = '';
  try {
    tail = readFileSync(log, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    /* no log yet */
  }
  return new Error(`${e.message}\nserver log (${log}), last lines:\n${tail}`);
}

/** The PIDs whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** Stops a cluster started by another process (the benchmarks), by its folder. */
export function stopPostgresClusterAt(dir: string): void {
  const bin = postgresBin();
  try {
    if (bin) run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates the migrated template database the test databases are copied from. */
export async function createTemplate(baseUrl: string): Promise<void> {
  psql(baseUrl, `CREATE DATABASE ${PG_TEMPLATE}`);
  const template = await openMigratedPostgres({ url: `${baseUrl}${PG_TEMPLATE}`, timeoutMs: 30_000, poolSize: 2 });
  await template.close();
}

/**
 * The test cluster's settings (test/helpers/global-setup.ts): a throwaway cluster need not
 * survive a power cut, so nothing is flushed to disk (fsync, full-page images). A crashed or
 * killed server still recovers everything committed (the WAL is written, only not flushed),
 * so commits stay synchronous: a test that kills the server may count on what it committed.
 * https://www.postgresql.org/docs/15/non-durability.html
 */
export const THROWAWAY_CLUSTER: Record<string, string> = { fsync: 'off', full_page_writes: 'off' };

let counter = 0;

/** Databases made in this worker since the last `endFileDatabases` (the current test file's). */
const madeInFile: string[] = [];

function nextDatabaseName(): string {
  const name = `t_${process.pid}_${threadId}_${Date.now().toString(36)}_${counter++}`;
  madeInFile.push(name);
  return name;
}

/**
 * FILE_COPY copies the template's files and checkpoints, which costs ~0.1 s with fsync off
 * (THROWAWAY_CLUSTER) against ~0.4 s for PostgreSQL 15's default WAL_LOG, which writes the
 * template's 9 MB through the WAL (measured on the 2-core machine); once per test, it adds up.
 */
const createFrom = (name: string) => `CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE} STRATEGY FILE_COPY`;

/**
 * A new, migrated, empty database on the test cluster; its URL. Named by process, worker thread
 * and count: test files that run at once are threads of one process, each with its own counter.
 * Synchronous (psql), for a set-up that needs a URL at once; `freshDatabase` is the cheaper one.
 */
export function freshDatabaseUrl(baseUrl: string): string {
  const name = nextDatabaseName();
  psql(baseUrl, createFrom(name));
  return `${baseUrl}${name}`;
}

/**
 * The worker's one connection to the cluster's `postgres` database. Creating a test's database
 * through it, rather than by a psql process (`freshDatabaseUrl`), saves the process's start and
 * its connection: the PostgreSQL projects do it once per test, several hundred times a run.
 */
let admin: { url: string; sql: SQL } | undefined;
function adminSql(baseUrl: string): SQL {
  if (admin?.url !== baseUrl) admin = { url: baseUrl, sql: new SQL({ url: `${baseUrl}postgres`, max: 1 }) };
  return admin.sql;
}

/** As `freshDatabaseUrl`, without a process and without blocking the event loop. */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const name = nextDatabaseName();
  await adminSql(baseUrl).unsafe(createFrom(name));
  return `${baseUrl}${name}`;
}

/**
 * After a test file: every session still open on a database the file made is ended. A store a
 * file forgot to close keeps its pool's connections otherwise, and where files share their
 * worker's modules (vitest.config.ts) nothing ends them with the file: a few dozen such stores
 * run the cluster out of max_connections for the files after. Ended from the server's side, the
 * leftover pool only finds its connections closed if it is ever used again; nothing uses it.
 */
export async function endFileDatabases(): Promise<void> {
  const names = madeInFile.splice(0);
  const base = process.env.VOICE_ALERT_TEST_PG;
  if (base && names.length > 0) {
    // The names are ours (nextDatabaseName: letters, digits, underscores).
    const list = names.map((n) => `'${n}'`).join(', ');
    await adminSql(base).unsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname IN (${list})`);
  }
  // Its own connection too: an isolated project's next file loads this module afresh.
  const own = admin;
  admin = undefined;
  await own?.sql.close();
}

/**
 * One SQL command on the cluster's `postgres` database, by psql: synchronous, so a test's
 * set-up can make a database where it needs a URL at once. The server's own psql, not Debian's
 * /usr/bin/psql: that is a Perl wrapper (pg_wrapper) which costs ~50-100 ms a call on the
 * 2-core machine, and the PostgreSQL projects call this once per test.
 */
export function psql(baseUrl: string, command: string): string {
  const r = spawnSync(psqlBin(), [`${baseUrl}postgres`, '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql ${command} failed: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

let psqlPath: string | undefined;
function psqlBin(): string {
  if (psqlPath === undefined) {
    const bin = postgresBin();
    psqlPath = bin && existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  }
  return psqlPath;
}

/** Set by the vitest project that runs suites on PostgreSQL (vitest.config.ts). */
export const onPostgres = process.env.VOICE_ALERT_TEST_STORE === 'postgres';

/** The test cluster's base URL (test/helpers/global-setup.ts sets it). */
function testCluster(): string {
  const base = process.env.VOICE_ALERT_TEST_PG;
  if (!base) throw new Error('VOICE_ALERT_TEST_PG is not set: the global setup starts the PostgreSQL cluster');
  return base;
}

/** store.url for a test's own store: a fresh database on the PostgreSQL project, none (SQLite) otherwise. */
export function testStoreUrl(): string | undefined {
  return onPostgres ? freshDatabaseUrl(testCluster()) : undefined;
}

/** As `testStoreUrl`, made without a psql process (`freshDatabase`). */
export async function testStoreUrlAsync(): Promise<string | undefined> {
  return onPostgres ? freshDatabase(testCluster()) : undefined;
}
