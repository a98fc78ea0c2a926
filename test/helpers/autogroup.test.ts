import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { expect, it } from 'vitest';
import { lowerSessionToOurNiceness } from './autogroup';

const autogroupNice = (pid: number) => Number(/nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, 'utf8'))![1]);

it.runIf(existsSync('/proc/self/autogroup'))('a peer in a session of its own takes our nice value as its group’s, by PID or by an argument only it has', async () => {
  const ours = getPriority(); // 5 in scripts/test's CPU-bound process, 0 when run alone
  for (const find of [(pid: number) => ({ pid }), () => ({ argument: 'va-autogroup-marker' })]) {
    const child = spawn('sh', ['-c', 'sleep 30; true', 'va-autogroup-marker'], { detached: true, stdio: 'ignore' });
    try {
      expect(autogroupNice(child.pid!)).toBe(0); // a new session starts at the default weight
      await lowerSessionToOurNiceness(find(child.pid!));
      expect(autogroupNice(child.pid!)).toBe(Math.max(ours, 0));
    } finally {
      process.kill(-child.pid!, 'SIGKILL');
    }
  }
});
