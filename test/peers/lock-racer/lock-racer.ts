/**
 * Another appliance's transaction, scripted to deadlock twice with a write of the one under
 * test that takes key A then key B (key-lock.ts). It holds B by a session lock; each time the
 * other side waits for B while holding A, it asks for A: a deadlock. Its deadlock_timeout is
 * long, so the other side's server process finds each deadlock first and loses it.
 *
 *   bun test/peers/lock-racer/lock-racer.ts URL KEY_A KEY_B
 *
 * Prints one line per step; exits 0 once it let go of both keys.
 */
import { SQL } from 'bun';

const [url, a, b] = process.argv.slice(2) as [string, string, string];
const pool = new SQL({ url, max: 1 });
const conn = await pool.reserve(); // session locks live on one connection
const say = (line: string) => process.stdout.write(`${line}\n`);

const lock = (k: string) => conn`SELECT pg_advisory_lock(hashtextextended(${k}, 0))`;
const unlock = (k: string) => conn`SELECT pg_advisory_unlock(hashtextextended(${k}, 0))`;
/** Until some other session waits for key k (pg_locks shows a bigint key as classid:objid). */
async function someoneWaitsFor(k: string): Promise<void> {
  for (;;) {
    const [row] = await conn`SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
        AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(${k}, 0)`;
    if (row.n > 0) return;
    await Bun.sleep(10);
  }
}

await conn`SET deadlock_timeout = '30s'`;
await lock(b);
say(`holding ${b}`);
await someoneWaitsFor(b); // the first run holds A and waits for B
await lock(a); // deadlock 1: the other side is undone, so A comes here
say('won deadlock 1');
await someoneWaitsFor(a); // the next run waits for A
await unlock(a); // it takes A, then waits for B
await someoneWaitsFor(b);
await lock(a); // deadlock 2
say('won deadlock 2');
await someoneWaitsFor(a); // and the run after that
await unlock(a);
await unlock(b);
say('let go');
conn.release();
await pool.close();
