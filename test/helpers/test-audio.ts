import type { CallAudio, CallAudioSource } from '../../src/call-model';

/**
 * A known test signal instead of speech: `frames` 20 ms frames whose bytes never repeat
 * between neighbouring frames and are never G.711 silence, so a recording can be checked
 * frame by frame. The same byte pattern serves as µ-law and A-law (each is valid G.711).
 */
export function testAudio(frames: number, seed = 1): CallAudio {
  const make = () => {
    const b = new Uint8Array(frames * 160);
    for (let i = 0; i < b.length; i++) {
      const f = Math.floor(i / 160);
      // Codes 0x10–0x6F: loud enough to be non-silent in both laws, and not ±0.
      b[i] = 0x10 + ((f * 37 + (i % 160) * 3 + seed * 11) % 0x60);
    }
    return b;
  };
  return { pcmu: make(), pcma: make(), durationMs: frames * 20 };
}

/** `rendered` holds each message spoken; a bundle appears as its messages joined by " | ". */
export function testAudioSource(frames = 50): CallAudioSource & { rendered: string[] } {
  const rendered: string[] = [];
  return {
    rendered,
    async forMessage(message) {
      rendered.push(message);
      return testAudio(frames, 1);
    },
    async forBundle(messages) {
      rendered.push(messages.join(' | '));
      return testAudio(frames * messages.length, 1);
    },
    async acknowledged() {
      return testAudio(10, 2);
    },
  };
}
