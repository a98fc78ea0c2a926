import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';

/**
 * Holds a peer that runs in a session of its own (by its PID, or by an argument of its command
 * line only it has) at this process's lower priority.
 *
 * scripts/test runs the CPU-bound projects at a lower priority (`nice -n 5`), inherited by what they start. But
 * with the kernel's autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled`, on in
 * Debian's kernels), nice only orders processes within one session: a child that starts a
 * session of its own (Chromium under Playwright does, `setsid`) is scheduled as a whole group
 * against every other session, the peer suites' included, whatever its nice value. Its group's
 * weight is set through `/proc/PID/autogroup` (sched(7) "The autogroup feature"); a process may
 * always lower its own processes' priority. Does nothing at normal priority, and where the file
 * is missing or not writable (no autogroup): only the scheduling order is at stake.
 */
export async function lowerSessionToOurNiceness(peer: { pid: number } | { argument: string }): Promise<void> {
  const nice = getPriority();
  if (nice <= 0) return;
  const pid = 'pid' in peer ? peer.pid : pidWithArgument(peer.argument);
  if (pid === null) return;
  // The kernel takes one such write in 100 ms from a process without CAP_SYS_ADMIN and refuses
  // the others with EAGAIN (kernel/sched/autogroup.c proc_sched_autogroup_set_nice): two peers
  // started together would leave the second at full weight. Try again after the 100 ms.
  for (let tries = 1; ; tries++) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(nice));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || tries >= 20) return; // no autogroup here, or the peer is gone
      await new Promise((r) => setTimeout(r, 110));
    }
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
