// Bun's built-in SQL client against the `postgres` npm package (issue 16: "measure both
// before choosing"): sequential round trips, as the store makes them, on a throwaway local
// cluster. The package is not a dependency: install it anywhere and pass its folder.
//   mkdir /tmp/pgclients && (cd /tmp/pgclients && npm init -y && npm i postgres@3)
//   node_modules/.bin/bun scripts/bench/postgres-clients.ts /tmp/pgclients/node_modules/postgres
import { SQL } from 'bun';
import { freePort } from '../../test/helpers/ports';
import { startPostgresCluster } from '../../test/helpers/postgres';

const packagePath = process.argv[2];
if (!packagePath) throw new Error('usage: postgres-clients.ts PATH_TO_postgres_PACKAGE');
const postgres = (await import(packagePath)).default;
const cluster = startPostgresCluster(await freePort());
const url = `${cluster.baseUrl}postgres`;
const N = 5000;

type Run = (sql: string, params: unknown[]) => Promise<unknown>;
async function measure(name: string, run: Run) {
  await run('CREATE TABLE IF NOT EXISTS t (id BIGSERIAL PRIMARY KEY, v TEXT, at BIGINT)', []);
  for (let i = 0; i < 500; i++) await run('SELECT $1::int + 1 AS x', [i]); // warm-up
  let t = performance.now();
  for (let i = 0; i < N; i++) await run('SELECT $1::int + 1 AS x', [i]);
  const select = ((performance.now() - t) / N) * 1000;
  t = performance.now();
  for (let b = 0; b < N / 50; b++) {
    await run('BEGIN', []);
    for (let i = 0; i < 50; i++) await run('INSERT INTO t (v, at) VALUES ($1, $2) RETURNING id', ['x', Date.now()]);
    await run('COMMIT', []);
  }
  const insert = ((performance.now() - t) / N) * 1000;
  console.log(`| ${name} | ${select.toFixed(0)} | ${insert.toFixed(0)} |`);
}

try {
  const bun = new SQL({ url, max: 1, bigint: true });
  const reserved = await bun.reserve();
  const pkg = postgres(url, { max: 1, onnotice: () => undefined });
  const pkgReserved = await pkg.reserve();
  console.log('| client | SELECT round trip µs | INSERT … RETURNING in a transaction µs |\n|---|---|---|');
  for (let round = 0; round < 2; round++) {
    await measure('Bun.SQL (built in)', (s, p) => reserved.unsafe(s, p as never[]));
    await measure('postgres 3 (npm)', (s, p) => pkgReserved.unsafe(s, p));
  }
  reserved.release();
  pkgReserved.release();
  await bun.close();
  await pkg.end();
} finally {
  cluster.stop();
}
process.exit(0);
