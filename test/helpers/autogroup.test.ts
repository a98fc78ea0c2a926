import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { expect, it } from 'vitest';
import { lowerSessionToOurNiceness } from './autogroup';
import { until } from './until';

const autogroupNice = (pid: number) => Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))![1]);

/** Whether `pid` leads its session (proc(5): /proc/PID/stat's sixth field) and runs with `marker` among its arguments. */
function leadsWith(pid: number, marker: string): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const session = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
  return session === pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker);
}

it.runIf(existsSync('/proc/self/autogroup'))('a peer in a session of its own takes our nice value as its group’s, by PID or by an argument only it has; never our own group', async () => {
  const ours = getPriority(); // 19 in scripts/test's CPU-bound process, 0 when run alone
  const ourGroup = readFileSync('/proc/self/autogroup', 'utf8');
  for (const [i, find] of [(pid: number) => ({ pid }), (_: number, marker: string) => ({ argument: marker })].entries()) {
    const marker = `va-autogroup-${process.pid}-${i}`; // one per peer: the one before may not be gone yet
    const child = spawn('sh', ['-c', 'sleep 30; true', marker], { detached: true, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      // spawn() returns before the child has called setsid and exec'd (a full run caught it
      // there): the peer is what it is in use, a session leader running its command line.
      await until('the child leading its session with its command line', () => leadsWith(child.pid!, marker), 5000, 10);
      expect(autogroupNice(child.pid!)).toBe(0); // a new session starts at the default weight
      await lowerSessionToOurNiceness(find(child.pid!, marker));
      expect(autogroupNice(child.pid!)).toBe(Math.max(ours, 0));
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
  }
  // A child still in our session (one that has not called setsid) is never lowered: its group is
  // ours, and lowering it would lower the whole run.
  const ourChild = spawn('sleep', ['30'], { stdio: 'ignore' });
  const ourChildExited = new Promise((resolve) => ourChild.on('exit', resolve));
  try {
    await lowerSessionToOurNiceness({ pid: ourChild.pid! });
    expect(readFileSync('/proc/self/autogroup', 'utf8')).toBe(ourGroup);
  } finally {
    ourChild.kill('SIGKILL');
    await ourChildExited;
  }
});
