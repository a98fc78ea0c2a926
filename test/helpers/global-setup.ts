import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { BINARY, ROOT } from './paths';
import { freePort } from './ports';
import { createTemplate, postgresBin, startPostgresCluster, THROWAWAY_CLUSTER } from './postgres';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Integration tests run the compiled binary; build it when it is missing or older than src/.
 * Suites that run on PostgreSQL too get a throwaway cluster (test/helpers/postgres.ts),
 * started once for the whole run and stopped at its end.
 */
export default async function setup(): Promise<(() => void) | void> {
  const stale =
    !existsSync(BINARY) ||
    statSync(BINARY).mtimeMs < Math.max(newestSource(join(ROOT, 'src')), newestSource(join(ROOT, 'assets')));
  if (stale) execFileSync(join(ROOT, 'scripts/build'), { stdio: 'inherit' });
  if (process.env.VOICE_ALERT_TEST_PG || !postgresBin()) return;
  const cluster = startPostgresCluster(await freePort(), THROWAWAY_CLUSTER);
  await createTemplate(cluster.baseUrl);
  process.env.VOICE_ALERT_TEST_PG = cluster.baseUrl;
  return () => {
    delete process.env.VOICE_ALERT_TEST_PG;
    cluster.stop();
  };
}
