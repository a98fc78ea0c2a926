import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../test/helpers/paths';
import { testStoreUrl } from '../../test/helpers/postgres';
import { CONFLICT_RUNS, createGroupCommitter } from './group-commit';
import { createKeyLock } from './key-lock';
import { PostgresError, postgresConnection } from './sql/postgres/connection';

// Two appliances' batches can take the same alert keys in opposite orders and deadlock.
// PostgreSQL undoes one side; that side's write must be run again, not answered 500.

const racers: ReturnType<typeof spawn>[] = [];
const connections: { close(): void }[] = [];
afterEach(() => {
  for (const r of racers.splice(0)) if (r.exitCode === null) r.kill('SIGKILL'); // only the one this test started
  connections.splice(0).forEach((c) => c.close());
});

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

describe('key locks across appliances (PostgreSQL)', () => {
  it('a write that loses a deadlock is run again: twice undone, then written once; the race costs seconds, not the alert', async () => {
    const url = testStoreUrl()!;
    const db = postgresConnection({ url, statementTimeoutMs: 15_000 });
    connections.push(db);
    db.exec('CREATE TABLE alert (key TEXT PRIMARY KEY)');
    const writes = createGroupCommitter(db);
    const lockKey = createKeyLock(db);
    const insert = db.query('INSERT INTO alert (key) VALUES ($key)');

    const racer = startRacer(url, 'key-a', 'key-b');
    await racer.said('holding key-b');
    let runs = 0;
    const result = await writes.run(() => {
      runs++;
      lockKey('key-a');
      lockKey('key-b');
      insert.run({ key: 'key-a' }); // an earlier run that committed would make this a duplicate
      return 'written';
    });

    expect(result).toBe('written');
    // Optimistic run undone by deadlock 1 and run again carefully; that careful run undone by
    // deadlock 2 and put back into the next batch, which writes it.
    expect(runs).toBe(3);
    expect(writes.stats()).toMatchObject({ runAgain: 1, conflictRuns: 1 });
    expect(await racer.exited).toBe(0);
    expect(racer.lines()).toEqual(['holding key-b', 'won deadlock 1', 'won deadlock 2', 'let go']);
    expect(db.query('SELECT key FROM alert').values()).toEqual([['key-a']]);
  }, 30_000);

  it('a write that keeps losing is refused after CONFLICT_RUNS careful runs; other errors at once; flush waits for a write run again', async () => {
    const db = postgresConnection({ url: testStoreUrl()!, statementTimeoutMs: 5000 });
    connections.push(db);
    const writes = createGroupCommitter(db);
    // Each batch it is in is tried optimistically, then carefully.
    let lost = 0;
    const alwaysLoses = writes.run(() => {
      lost++;
      throw new PostgresError('deadlock detected', '40P01');
    });
    await expect(alwaysLoses).rejects.toMatchObject({ sqlState: '40P01' });
    expect(lost).toBe(2 * CONFLICT_RUNS);
    expect(writes.stats().conflictRuns).toBe(CONFLICT_RUNS - 1);

    let duplicate = 0;
    const notARace = writes.run(() => {
      duplicate++;
      throw new PostgresError('duplicate key value violates unique constraint', '23505');
    });
    await expect(notARace).rejects.toMatchObject({ sqlState: '23505' });
    expect(duplicate).toBe(2); // optimistic, careful: no more

    let raced = 0;
    const winsOnItsThirdRun = writes.run(() => {
      if (++raced < 3) throw new PostgresError('could not serialize access', '40001');
      return 'written';
    });
    const flushed = writes.flush().then(() => raced);
    expect(await flushed).toBe(3); // flush waits for the write put back into the next batch
    expect(await winsOnItsThirdRun).toBe('written');
  });
});
