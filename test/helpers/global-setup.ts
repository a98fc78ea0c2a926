import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { BINARY, ROOT } from './paths';
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

/** Integration tests run the compiled binary; build it when it is missing or older than src/. */
export default function setup(): void {
  const stale =
    !existsSync(BINARY) ||
    statSync(BINARY).mtimeMs < Math.max(newestSource(join(ROOT, 'src')), newestSource(join(ROOT, 'assets')));
  if (stale) execFileSync(join(ROOT, 'scripts/build'), { stdio: 'inherit' });
}
