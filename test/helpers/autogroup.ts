import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';

/**
 * Holds a peer that runs in a session of its own (by its PID, or by an argument of its command
 * line only it has) at this process's lower priority.
 *
 * scripts/test runs the CPU-bound projects at the lowest priority (`nice -n 19`), inherited by
 * what they start. But with the kernel's autogroup scheduling (`/proc/sys/kernel/sched_autogroup_enabled`, on in
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
  const pid = 'pid' in peer ? peer.pid : leaderWithArgument(peer.argument);
  // Only a session leader's group is the peer's own: any other process (one that has not called
  // setsid yet, a child of the peer) would be in a group of ours, and lowering it would lower us.
  if (pid === null || !isSessionLeader(pid)) return;
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

/** Whether `pid` leads its session (/proc/PID/stat's sixth field, proc(5)). */
function isSessionLeader(pid: number): boolean {
  try {
    // The command name, field 2, is in parentheses and may hold spaces: count after its ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[3]) === pid; // state, ppid, pgrp, session
  } catch {
    return false; // gone
  }
}

/** The session leader whose command line holds `marker` (a unique profile folder), or null. */
function leaderWithArgument(marker: string): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const pid = Number(name);
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(marker)) && isSessionLeader(pid)) return pid;
    } catch {
      // gone meanwhile
    }
  }
  return null;
}
