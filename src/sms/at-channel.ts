/**
 * The AT command line (3GPP TS 27.007 §4, V.250 §5): one command at a time, its answer read as
 * lines until a final result code; everything else the modem says on its own (unsolicited
 * result codes such as `+CMTI`) goes to `onUnsolicited`.
 *
 * The line is read as bytes (latin1): a modem that prints garbage, or a half-line when it is
 * unplugged, never breaks decoding; a line longer than MAX_LINE is dropped.
 */
export type FinalResult = { ok: true } | { ok: false; error: string };

export interface AtAnswer {
  /** The lines between the command and its final result (echo and blanks removed). */
  lines: string[];
  final: FinalResult;
}

export class AtTimeoutError extends Error {
  constructor(command: string, seconds: number) {
    super(`no answer to ${command} within ${seconds} s`);
  }
}

export class AtClosedError extends Error {}

/** A 1,600-character UCS-2 text is 6,400 hex digits on one line. */
const MAX_LINE = 16_384;
/** Final result codes: V.250 §5.7.1 and TS 27.007 §9.2, TS 27.005 §3.2.5. */
const FINAL = /^(OK|ERROR|NO CARRIER|\+CME ERROR: ?.*|\+CMS ERROR: ?.*)$/;
/** Said by the modem on its own (TS 27.005 §3.4.1, TS 27.007 §7.2, §6.2). */
const UNSOLICITED = /^(\+CMTI:|\+CDSI:|\+CMT:|\+CDS:|\+CBM:|RING$|\+CRING:|\+CLIP:|\^|\+CIEV:|\+CUSD:)/;

interface Pending {
  command: string;
  /** Lines starting so answer this command even though they look unsolicited (`+CREG:`). */
  answerPrefix?: string;
  lines: string[];
  prompt?: () => void;
  done(answer: AtAnswer): void;
  fail(e: Error): void;
}

export interface AtChannel {
  /** Bytes from the port. */
  feed(chunk: Uint8Array): void;
  /**
   * Sends `command` (without CR) and resolves with its answer. Commands queue: never two on
   * the line at once. Rejects with AtTimeoutError after `timeoutS`, AtClosedError on close().
   */
  run(command: string, options?: { timeoutS?: number; answerPrefix?: string }): Promise<AtAnswer>;
  /**
   * `AT+CMGS=…` (TS 27.005 §3.5.1): sends the command, waits for the `> ` prompt, then the text
   * and Ctrl-Z, and resolves with the final answer (`+CMGS: <mr>` or `+CMS ERROR`).
   */
  runWithText(command: string, text: string, options: { timeoutS: number; promptTimeoutS: number }): Promise<AtAnswer>;
  /** Fails the command in progress and every queued one. */
  close(why: string): void;
}

export interface AtChannelOptions {
  write(bytes: string): Promise<void>;
  onUnsolicited(line: string): void;
  /** A line that belongs to nothing (garbage, a stray answer): for the log. */
  onStray?(line: string): void;
  defaultTimeoutS: number;
}

export function createAtChannel(options: AtChannelOptions): AtChannel {
  let buffer = '';
  let pending: Pending | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let closedWhy: string | null = null;

  const onLine = (line: string) => {
    if (line === '') return;
    if (pending && line === pending.command) return; // the modem's echo (ATE1, the default until our ATE0)
    if (pending && pending.answerPrefix && line.startsWith(pending.answerPrefix)) {
      pending.lines.push(line);
      return;
    }
    if (UNSOLICITED.test(line)) {
      options.onUnsolicited(line);
      return;
    }
    if (!pending) {
      options.onStray?.(line);
      return;
    }
    if (FINAL.test(line)) {
      const p = pending;
      pending = null;
      p.done({ lines: p.lines, final: line === 'OK' ? { ok: true } : { ok: false, error: line } });
      return;
    }
    pending.lines.push(line);
  };

  const feed = (chunk: Uint8Array) => {
    buffer += Buffer.from(chunk).toString('latin1');
    for (;;) {
      // The text prompt has no line end after it (TS 27.005 §3.5.1: "<CR><LF><greater_than><space>").
      if (pending?.prompt && /(^|[\r\n])> ?$/.test(buffer)) {
        buffer = '';
        const p = pending.prompt;
        pending.prompt = undefined;
        p();
        return;
      }
      const at = buffer.search(/[\r\n]/);
      if (at < 0) break;
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      onLine(line);
    }
    if (buffer.length > MAX_LINE) {
      options.onStray?.(`(${buffer.length} bytes without a line end dropped)`);
      buffer = '';
    }
  };

  const start = (command: string, answerPrefix: string | undefined, timeoutS: number, withPrompt?: (p: Pending) => void): Promise<AtAnswer> => {
    const step = queue.then(
      () =>
        new Promise<AtAnswer>((resolve, reject) => {
          if (closedWhy !== null) return reject(new AtClosedError(closedWhy));
          const timer = setTimeout(() => {
            if (pending === p) pending = null;
            reject(new AtTimeoutError(command, timeoutS));
          }, timeoutS * 1000);
          const p: Pending = {
            command,
            answerPrefix,
            lines: [],
            done: (a) => {
              clearTimeout(timer);
              resolve(a);
            },
            fail: (e) => {
              clearTimeout(timer);
              reject(e);
            },
          };
          // The buffer is kept: a +CMTI half-received when the command went out is still read.
          pending = p;
          withPrompt?.(p);
          options.write(`${command}\r`).catch((e) => {
            if (pending === p) pending = null;
            p.fail(e instanceof Error ? e : new Error(String(e)));
          });
        }),
    );
    queue = step.catch(() => {});
    return step;
  };

  return {
    feed,
    run: (command, o = {}) => start(command, o.answerPrefix, o.timeoutS ?? options.defaultTimeoutS),
    runWithText: (command, text, o) =>
      start(command, undefined, o.timeoutS, (p) => {
        const promptTimer = setTimeout(() => {
          if (pending !== p || !p.prompt) return;
          pending = null;
          // ESC cancels the text entry (TS 27.005 §3.5.1) so the line is free for the next command.
          void options.write('\x1b').catch(() => {});
          p.fail(new AtTimeoutError(`the text prompt of ${command}`, o.promptTimeoutS));
        }, o.promptTimeoutS * 1000);
        p.prompt = () => {
          clearTimeout(promptTimer);
          options.write(`${text}\x1a`).catch((e) => {
            if (pending === p) pending = null;
            p.fail(e instanceof Error ? e : new Error(String(e)));
          });
        };
        const done = p.done;
        const fail = p.fail;
        p.done = (a) => {
          clearTimeout(promptTimer);
          done(a);
        };
        p.fail = (e) => {
          clearTimeout(promptTimer);
          fail(e);
        };
      }),
    close(why) {
      closedWhy = why;
      const p = pending;
      pending = null;
      buffer = '';
      p?.fail(new AtClosedError(why));
    },
  };
}
