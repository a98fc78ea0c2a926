// A throwaway PostgreSQL cluster for the benchmarks (test/helpers/postgres.ts):
//   bun scripts/bench/postgres-cluster.ts start        prints "<base url> <folder>"
//   bun scripts/bench/postgres-cluster.ts create URL NAME   creates database NAME
//   bun scripts/bench/postgres-cluster.ts stop FOLDER
// synchronous_commit stays on (the default): an accepted alert is on disk at the server.
import { freePort } from '../../test/helpers/ports';
import { psql, startPostgresCluster, stopPostgresClusterAt } from '../../test/helpers/postgres';

const [command, a, b] = process.argv.slice(2);
if (command === 'start') {
  const cluster = startPostgresCluster(await freePort(), { synchronous_commit: 'on' });
  console.log(`${cluster.baseUrl} ${cluster.dir}`);
} else if (command === 'create') {
  psql(a!, `CREATE DATABASE ${b}`);
} else if (command === 'stop') {
  stopPostgresClusterAt(a!);
} else {
  console.error('usage: postgres-cluster.ts start | create BASE_URL NAME | stop FOLDER');
  process.exit(2);
}
process.exit(0);
