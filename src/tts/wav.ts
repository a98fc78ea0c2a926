import type { Pcm } from './renderer';
import { SpeechError } from './renderer';

/**
 * 16-bit PCM WAV, mono, the only kind our engines write and `say` produces.
 * Reading tolerates the streaming header espeak-ng writes to a pipe (RIFF and data sizes
 * 0x7ffff0xx, because it cannot seek back): the data chunk ends where the bytes end.
 */
export function readWav(bytes: Uint8Array): Pcm {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new SpeechError('BAD_AUDIO', 'not a WAV file');
  let sampleRate = 0;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      const format = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const bits = view.getUint16(body + 14, true);
      if (format !== 1 || channels !== 1 || bits !== 16) {
        throw new SpeechError('BAD_AUDIO', `WAV is format ${format}, ${channels} channels, ${bits} bits; want PCM mono 16-bit`);
      }
      sampleRate = view.getUint32(body + 4, true);
    } else if (id === 'data') {
      if (!sampleRate) throw new SpeechError('BAD_AUDIO', 'WAV data chunk before fmt chunk');
      const end = Math.min(bytes.length, body + size);
      const count = Math.floor((end - body) / 2);
      return { samples: littleEndianSamples(bytes, view, body, count), sampleRate };
    }
    offset = body + size + (size & 1);
  }
  throw new SpeechError('BAD_AUDIO', 'WAV has no data chunk');
}

/** Whether this machine stores an Int16 low byte first, as WAV does (x86, ARM: yes). */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The data chunk's samples, copied: the source offset may be odd, and an Int16Array view
 * needs 2-byte alignment. On a little-endian host one native copy of the bytes, not a
 * JavaScript step per sample on the event loop; elsewhere sample by sample.
 */
function littleEndianSamples(bytes: Uint8Array, view: DataView, at: number, count: number): Int16Array {
  if (HOST_IS_LITTLE_ENDIAN) {
    // set(), not slice(): a Node Buffer's slice() is a view of the same memory, not a copy.
    const copy = new Uint8Array(2 * count);
    copy.set(bytes.subarray(at, at + 2 * count));
    return new Int16Array(copy.buffer);
  }
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(at + 2 * i, true);
  return samples;
}

export function writeWav(pcm: Pcm): Uint8Array {
  const dataBytes = pcm.samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const put = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i);
  };
  put(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  put(8, 'WAVE');
  put(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, pcm.sampleRate, true);
  view.setUint32(28, pcm.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  put(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < pcm.samples.length; i++) view.setInt16(44 + 2 * i, pcm.samples[i]!, true);
  return out;
}
