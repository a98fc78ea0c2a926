import { getPriority, setPriority } from 'node:os';
import { SpeechError } from './renderer';

export interface RunOptions {
  /** argv[0] as configured: a name looked up in PATH or a path. */
  binary: string;
  args: string[];
  /** Written to the child's stdin, then stdin is closed. Text NEVER goes into `args`. */
  stdin: Uint8Array;
  /** Killed after this long; the render then fails with ENGINE_FAILED. */
  timeoutMs: number;
  /** Names the engine in error messages ("espeak-ng", "piper", "sox"). */
  what: string;
}

/**
 * How much lower than the appliance's own the engines' scheduling priority is (nice +10).
 * Renders come in bursts (an alert storm's first calls, 20 at once by default), and on two
 * cores they took the CPU the intake answers with in a storm's first seconds (BENCHMARKS.md
 * "Alert storm"). A render waits a little longer; an alert's answer does not.
 */
export const ENGINE_NICE = 10;

/**
 * Runs one engine process to completion and returns its stdout. Any failure (not found,
 * non-zero exit, timeout) is a SpeechError; the first line of stderr goes in the message.
 */
export async function runProcess(options: RunOptions): Promise<Uint8Array> {
  let child: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'pipe'>>;
  try {
    child = Bun.spawn([options.binary, ...options.args], { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  } catch (e) {
    throw new SpeechError('ENGINE_MISSING', `${options.what}: cannot run "${options.binary}": ${(e as Error).message}`);
  }
  try {
    setPriority(child.pid, Math.min(19, getPriority() + ENGINE_NICE));
  } catch {
    // Already gone (its exit status tells), or not ours to lower: it runs at our priority.
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  try {
    // Write and read concurrently: a large text would otherwise fill both pipes and deadlock.
    const writing = (async () => {
      try {
        child.stdin.write(options.stdin);
        await child.stdin.end();
      } catch {
        // The child exited without reading all input; its exit status tells why.
      }
    })();
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).arrayBuffer(),
      new Response(child.stderr).text(),
      child.exited,
      writing,
    ]);
    if (timedOut) throw new SpeechError('ENGINE_FAILED', `${options.what}: no result within ${options.timeoutMs} ms`);
    if (code !== 0) {
      const why = stderr.trim().split('\n')[0] ?? '';
      throw new SpeechError('ENGINE_FAILED', `${options.what} exited with ${code}${why ? `: ${why}` : ''}`);
    }
    return new Uint8Array(stdout);
  } finally {
    clearTimeout(timer);
  }
}
