import type { Pcm } from './renderer';
import { SpeechError } from './renderer';
import { runProcess } from './run-process';

export const TELEPHONE_RATE = 8000;

/**
 * To 8 kHz with sox's `rate` effect (linear-phase windowed-sinc, high quality: passband to
 * ~3.8 kHz, > 100 dB rejection above 4 kHz), run as a child process.
 *
 * Why sox and not an in-process library: measured here (BENCHMARKS.md, Speech), 41 s of
 * 22,050 Hz speech took 72–108 ms with the libsamplerate WebAssembly port at its FASTEST
 * sinc setting and 24–26 ms with sox, so only sox meets the 150 ms cold budget next to
 * espeak-ng's ~50 ms. sox is a Debian package the appliance already requires, and a child
 * process works inside the compiled binary with nothing beside it.
 */
export async function resampleToTelephone(pcm: Pcm, soxBinary: string): Promise<Int16Array> {
  const raw = (rate: number) => ['-t', 'raw', '-r', String(rate), '-e', 'signed', '-b', '16', '-c', '1', '-L'];
  const input = new Uint8Array(pcm.samples.buffer, pcm.samples.byteOffset, pcm.samples.byteLength);
  // -D: no dither (16 to 16 bits needs none; it would only add noise and break caching determinism).
  // -V1: errors only (a warning on stderr is no failure). gain -n -3: peak to -3 dBFS. espeak-ng writes peaks at ~0.97 of full scale, which the
  // filter's ringing and G.711's ceiling (0.98) would clip; it also evens out engines and parts.
  const out = await runProcess({
    binary: soxBinary,
    args: ['-V1', '-D', ...raw(pcm.sampleRate), '-', ...raw(TELEPHONE_RATE), '-', 'rate', '-h', 'gain', '-n', '-3'],
    stdin: input,
    timeoutMs: 30_000,
    what: 'sox',
  });
  if (out.length < 2) throw new SpeechError('BAD_AUDIO', 'sox produced no audio');
  // Copy into a fresh, aligned buffer.
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~1)));
}
