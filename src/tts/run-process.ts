import { availableParallelism, getPriority, setPriority } from 'node:os';
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
 * How many engine processes run at once; the others wait their turn, first come first
 * served. A lower priority alone did not keep the intake's CPU: 40 engines at nice +10 (an
 * alert storm's 20 first calls, espeak-ng and sox each) weigh four times the appliance's
 * thread in the kernel's scheduler, which then ran it in 40–70 ms stretches (BENCHMARKS.md
 * "Alert storm"). As many as the machine has cores finishes a burst as soon as all at once,
 * and its first calls sooner.
 */
export const ENGINE_CONCURRENCY = Math.max(1, availableParallelism());

let running = 0;
const waiting: (() => void)[] = [];

/** Resolves when an engine may start; the caller gives its turn back with `endTurn`. */
function turn(): Promise<void> {
  if (running < ENGINE_CONCURRENCY) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function endTurn(): void {
  const next = waiting.shift();
  if (next) next(); // the turn passes on: `running` stays
  else running--;
}

/**
 * Runs one engine process to completion (when its turn comes: ENGINE_CONCURRENCY) and
 * returns its stdout. Any failure (not found, non-zero exit, timeout) is a SpeechError; the
 * first line of stderr goes in the message.
 */
export async function runProcess(options: RunOptions): Promise<Uint8Array> {
  await turn();
  try {
    return await runNow(options);
  } finally {
    endTurn();
  }
}

async function runNow(options: RunOptions): Promise<Uint8Array> {
  let child: ReturnType<typeof Bun.spawn<Uint8Array, 'pipe', 'pipe'>>;
  try {
    // The input is handed to the runtime, which writes it as the child reads, off JavaScript:
    // written from here it was a copy and a chain of writes on the event loop per render.
    child = Bun.spawn([options.binary, ...options.args], { stdin: options.stdin, stdout: 'pipe', stderr: 'pipe' });
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
    // Read while the runtime writes: a large input would otherwise fill both pipes and deadlock.
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).arrayBuffer(), new Response(child.stderr).text(), child.exited]);
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
