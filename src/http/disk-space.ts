import { statfsSync } from 'node:fs';

/** Free bytes an unprivileged writer may use on the file system holding `dir` (statfs f_bavail). */
export function statfsFreeBytes(dir: string): number {
  const s = statfsSync(dir, { bigint: true });
  return Number(s.bavail * s.bsize);
}
