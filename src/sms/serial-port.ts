import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { describeError } from '../log';

/**
 * A serial port as the modem session uses it: bytes in through `onData`, bytes out, and one
 * `lost` promise that says why the port went away (unplugged, closed).
 *
 * Why not the `serialport` package (13.x): measured under Bun 1.4.5, its native addon
 * (@serialport/bindings-cpp) does load inside a `bun build --compile` binary, but opening a port
 * panics the process ("unsupported uv function: uv_poll_init", oven-sh/bun#18546). So the tty
 * is set up by `stty` (raw, no echo, the baud rate; run as a child, never blocking) and opened
 * as a file with O_NONBLOCK, and read through `Bun.file(fd).stream()`: measured in the
 * compiled binary on a pseudo-terminal, data arrives as it is written, timers keep running
 * (the event loop is free) and the stream ends when the device goes away.
 */
export interface SerialPort {
  write(bytes: string | Uint8Array): Promise<void>;
  /** Ends reading and closes the device; `lost` then resolves with `why`. Idempotent. */
  close(why?: string): Promise<void>;
  /** Resolves once, with why the port is gone (never rejects). */
  readonly lost: Promise<string>;
}

export interface OpenSerialOptions {
  device: string;
  baud: number;
  onData(chunk: Uint8Array): void;
  /** The `stty` binary (tests and odd systems may point elsewhere). */
  stty?: string;
}

export class SerialOpenError extends Error {}

export async function openSerial(options: OpenSerialOptions): Promise<SerialPort> {
  const stty = Bun.spawn([options.stty ?? 'stty', '-F', options.device, String(options.baud), 'raw', '-echo', '-echoe', '-echok', '-echoctl', '-echoke', 'clocal', '-crtscts', '-hupcl'], {
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const [code, err] = await Promise.all([stty.exited, new Response(stty.stderr).text()]);
  if (code !== 0) throw new SerialOpenError(`cannot set up ${options.device}: ${err.trim() || `stty exited ${code}`}`);
  let handle: FileHandle;
  try {
    // O_NOCTTY: a modem must never become our controlling terminal (a hangup would signal us).
    handle = await open(options.device, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch (e) {
    throw new SerialOpenError(`cannot open ${options.device}: ${describeError(e)}`);
  }
  let resolveLost!: (why: string) => void;
  const lost = new Promise<string>((r) => (resolveLost = r));
  let gone = false;
  const reader = Bun.file(handle.fd).stream().getReader();
  const finish = async (why: string) => {
    if (gone) return;
    gone = true;
    await reader.cancel().catch(() => {});
    await handle.close().catch(() => {});
    resolveLost(why);
  };
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value && value.length > 0) options.onData(value);
      }
      await finish(`${options.device} closed`);
    } catch (e) {
      await finish(`${options.device}: ${describeError(e)}`);
    }
  })();
  return {
    lost,
    async write(bytes) {
      if (gone) throw new Error(`${options.device} is closed`);
      const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
      let off = 0;
      // O_NONBLOCK: a full output queue answers EAGAIN; wait a little rather than block.
      for (let tries = 0; off < buf.length; ) {
        try {
          const { bytesWritten } = await handle.write(buf, off, buf.length - off);
          off += bytesWritten;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN' || ++tries > 200) {
            void finish(`${options.device}: ${describeError(e)}`);
            throw e;
          }
          await Bun.sleep(5);
        }
      }
    },
    close: (why = 'closed') => finish(why),
  };
}
