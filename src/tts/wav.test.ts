import { describe, expect, it } from 'vitest';
import { readWav, writeWav } from './wav';

describe('WAV', () => {
  it('reads the samples of a data chunk at an odd offset exactly (little-endian, signed)', () => {
    const samples = Int16Array.from({ length: 1001 }, (_, i) => ((i * 7919) % 65536) - 32768);
    const plain = writeWav({ samples, sampleRate: 22050 });
    // A LIST chunk of odd size (padded to even, as RIFF wants) before the data chunk, and a
    // copy that starts one byte into its buffer: the samples are not 2-byte aligned there.
    const list = new Uint8Array([...new TextEncoder().encode('LIST'), 3, 0, 0, 0, 1, 2, 3, 0]);
    const withList = new Uint8Array(1 + plain.length + list.length);
    withList.set(plain.subarray(0, 36), 1);
    withList.set(list, 37);
    withList.set(plain.subarray(36), 37 + list.length);
    // As a plain Uint8Array, one byte into its buffer, and as a Node Buffer (readFileSync's),
    // whose slice() is a view, not a copy.
    for (const bytes of [plain, withList.subarray(1), Buffer.from(withList.subarray(1))]) {
      const pcm = readWav(bytes);
      expect(pcm.sampleRate).toBe(22050);
      expect(Array.from(pcm.samples)).toEqual(Array.from(samples));
    }
  });

  it("tolerates espeak-ng's streaming sizes: the data ends where the bytes end, an odd last byte dropped", () => {
    const bytes = writeWav({ samples: Int16Array.from([1, -2, 3]), sampleRate: 8000 });
    new DataView(bytes.buffer).setUint32(40, 0x7ffff000, true);
    expect(Array.from(readWav(new Uint8Array([...bytes, 0x55])).samples)).toEqual([1, -2, 3]);
  });
});
