import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';

/**
 * Holds a peer that runs in a session of its own (by its PID, or by an argument of its command
 * line only it has) at this process's lower priority.
 *
 * scripts/test runs the CPU-bound projects at `nice -n 19`, inherited by what they start. But
 * with the kernel's autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled`, on in
 * Debian's kernels), nice only orders processes within one session: a child that starts a
 * session of its own (Chromium under Playwright does, `setsid`) is scheduled as a whole group
 * against every other session, the peer suites' included, whatever its nice value. Its group's
 * weight is set through `/proc/PID/autogroup` (sched(7) "The autogroup feature"); a process may
 * always lower its own processes' priority. Does nothing at normal priority, and where the file
 * is missing or not writable (no autogroup): only the scheduling order is at stake.
 */
export function lowerSessionToOurNiceness(peer: { pid: number } | { argument: string }): void {
  const nice = getPriority();
  if (nice <= 0) return;
  const pid = 'pid' in peer ? peer.pid : pidWithArgument(peer.argument);
  if (pid === null) return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // No autogroup here: nice already applies across sessions.
  }
}

/** The PID of the process whose command line holds `marker` (a unique profile folder), or null. */
function pidWithArgument(marker: string): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(marker))) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
