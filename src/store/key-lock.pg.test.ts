import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../test/helpers/paths';
import { testStoreUrl } from '../../test/helpers/postgres';
import { createKeyLock } from './key-lock';
import type { SqlConnection } from './sql/connection';
import type { SqlDatabase } from './sql/database';
import { CONFLICT_RUNS, openPostgres } from './sql/postgres/database';

// Two appliances' transactions can take the same alert keys in opposite orders and deadlock.
// PostgreSQL undoes one side; that side's unit of work must be run again as a whole, not
// answered 500.

const racers: ReturnType<typeof spawn>[] = [];
const databases: SqlDatabase[] = [];
afterEach(async () => {
  for (const r of racers.splice(0)) if (r.exitCode === null) r.kill('SIGKILL'); // only the one this test started
  await Promise.all(databases.splice(0).map((db) => db.close()));
});

async function database(timeoutMs: number): Promise<SqlDatabase> {
  const db = await openPostgres({ url: testStoreUrl()!, timeoutMs, poolSize: 2 });
  databases.push(db);
  return db;
}

/** test/peers/lock-racer: the other appliance, holding KEY_B and then asking for KEY_A. */
function startRacer(url: string, a: string, b: string) {
  const child = spawn(process.execPath, [join(ROOT, 'test/peers/lock-racer/lock-racer.ts'), url, a, b], { stdio: ['ignore', 'pipe', 'pipe'] });
  racers.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    lines: () => out.trim().split('\n'),
    said: (line: string) => expect.poll(() => out.includes(line), { timeout: 10_000, interval: 20 }).toBe(true),
    exited,
  };
}

/** An error as the server sends it, with its SQLSTATE (a PL/pgSQL RAISE). */
const raise = (db: SqlConnection, sqlState: string, message: string) =>
  db.exec(`DO $$ BEGIN RAISE EXCEPTION USING ERRCODE = '${sqlState}', MESSAGE = '${message}'; END $$`);

describe('key locks across appliances (PostgreSQL)', () => {
  it('a unit of work that loses a deadlock is run again as a whole: twice undone, then written once; the race costs seconds, not the alert', async () => {
    const url = testStoreUrl()!;
    const db = await openPostgres({ url, timeoutMs: 15_000, poolSize: 2 });
    databases.push(db);
    await db.transaction((c) => c.exec('CREATE TABLE alert (key TEXT PRIMARY KEY)'));
    const before = db.stats();

    const racer = startRacer(url, 'key-a', 'key-b');
    await racer.said('holding key-b');
    let runs = 0;
    const result = await db.transaction(async (c) => {
      runs++;
      const lockKey = createKeyLock(c);
      await lockKey('key-a');
      await lockKey('key-b');
      await c.query('INSERT INTO alert (key) VALUES ($key)').run({ key: 'key-a' }); // an earlier run that committed would make this a duplicate
      return 'written';
    });

    expect(result).toBe('written');
    // Undone by deadlock 1, run again; undone by deadlock 2, run again; written.
    expect(runs).toBe(3);
    expect(db.stats().runAgain - before.runAgain).toBe(2);
    expect(await racer.exited).toBe(0);
    expect(racer.lines()).toEqual(['holding key-b', 'won deadlock 1', 'won deadlock 2', 'let go']);
    expect(await db.reader.query('SELECT key FROM alert').values()).toEqual([['key-a']]);
  }, 30_000);

  it('a unit that keeps losing is refused after CONFLICT_RUNS runs; other errors at once; flush waits for a unit run again', async () => {
    const db = await database(5000);
    await db.transaction((c) => c.exec('CREATE TABLE alert (key TEXT PRIMARY KEY)'));

    let lost = 0;
    const alwaysLoses = db.transaction(async (c) => {
      lost++;
      await raise(c, '40P01', 'deadlock detected');
    });
    await expect(alwaysLoses).rejects.toMatchObject({ errno: '40P01' });
    expect(lost).toBe(CONFLICT_RUNS);

    let duplicate = 0;
    const notARace = db.transaction(async (c) => {
      duplicate++;
      const insert = c.query('INSERT INTO alert (key) VALUES ($key)');
      await insert.run({ key: 'twice' });
      await insert.run({ key: 'twice' });
    });
    await expect(notARace).rejects.toMatchObject({ errno: '23505' });
    expect(duplicate).toBe(1); // a duplicate key is not a race: never run again
    expect(await db.reader.query('SELECT key FROM alert').values()).toEqual([]);

    let raced = 0;
    const winsOnItsThirdRun = db.transaction(async (c) => {
      if (++raced < 3) await raise(c, '40001', 'could not serialize access');
      return 'written';
    });
    const flushed = db.flush().then(() => raced);
    expect(await flushed).toBe(3); // flush waits for the unit run again
    expect(await winsOnItsThirdRun).toBe('written');
  });
});
