import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';

const EVENTS = '0123456789*#';
/** DTMF frequency pairs (ITU-T Q.23). */
const TONES: Record<string, [number, number]> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477], '4': [770, 1209], '5': [770, 1336], '6': [770, 1477],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477], '*': [941, 1209], '0': [941, 1336], '#': [941, 1477],
};

/** µ-law audio from sox: a key's two sines mixed (10 dB down), or silence when no key. */
function soxUlaw(seconds: number, key?: string): Uint8Array {
  const f = key ? TONES[key]! : null;
  const synth = f ? ['synth', String(seconds), 'sine', String(f[0]), 'synth', String(seconds), 'sine', 'mix', String(f[1])] : ['trim', '0', String(seconds)];
  return new Uint8Array(execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', 'u-law', '-t', 'raw', '-', ...synth, 'gain', '-10']));
}

/**
 * The media end of the desk caller (desk-caller.ts names its port in the SDP): records the
 * payloads of every RTP packet the appliance sends (in arrival order) and presses keys as
 * RFC 4733 telephone-events (payload type 101) from the same socket, so symmetric RTP sends
 * to it too.
 */
export interface RtpPhone {
  port: number;
  /** Payloads of payload type 0 (PCMU) received, one per packet. */
  frames: Uint8Array[];
  /** Every packet's arrival (performance.now ms) and sequence number, by sender `address:port`. */
  arrivals: Map<string, { at: number; seq: number }[]>;
  /** Where the appliance sends from; known once its first packet arrived. */
  remote(): { address: string; port: number } | null;
  /** One key press: 3 event packets and 3 end packets, one timestamp (RFC 4733 §2.5.1). */
  press(key: string): Promise<void>;
  /** One key press as tones in the audio (PCMU, 100 ms tone and 100 ms silence, paced 20 ms a packet). */
  tone(key: string): Promise<void>;
  /** µ-law audio (a greeting, a word) as PCMU packets, paced 20 ms a packet. */
  say(ulaw: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export async function startRtpPhone(port: number): Promise<RtpPhone> {
  const socket: Socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(port, '127.0.0.1', () => r()));
  const frames: Uint8Array[] = [];
  const arrivals = new Map<string, { at: number; seq: number }[]>();
  let remote: { address: string; port: number } | null = null;
  socket.on('message', (m, from) => {
    remote ??= { address: from.address, port: from.port };
    const key = `${from.address}:${from.port}`;
    if (!arrivals.has(key)) arrivals.set(key, []);
    arrivals.get(key)!.push({ at: performance.now(), seq: m.readUInt16BE(2) });
    if (m.length < 12 || (m[1]! & 0x7f) !== 0) return;
    const cc = m[0]! & 0x0f;
    frames.push(new Uint8Array(m.subarray(12 + cc * 4)));
  });
  let seq = 1;
  let ts = 8000;
  const send = (to: { address: string; port: number }, marker: boolean, event: number, end: boolean, duration: number) => {
    const p = Buffer.alloc(16);
    p[0] = 0x80;
    p[1] = (marker ? 0x80 : 0) | 101;
    p.writeUInt16BE(seq++ & 0xffff, 2);
    p.writeUInt32BE(ts, 4);
    p.writeUInt32BE(0x1234abcd, 8);
    p[12] = event;
    p[13] = (end ? 0x80 : 0) | 10;
    p.writeUInt16BE(duration, 14);
    return new Promise<void>((r) => socket.send(p, to.port, to.address, () => r()));
  };
  return {
    port,
    frames,
    arrivals,
    remote: () => remote,
    async press(key) {
      const to = remote;
      if (!to) throw new Error('no RTP from the appliance yet: nowhere to send the key');
      const event = EVENTS.indexOf(key);
      if (event < 0) throw new Error(`no telephone-event for ${key}`);
      ts += 1600;
      for (let i = 0; i < 3; i++) {
        await send(to, i === 0, event, false, 160 * (i + 1));
        await new Promise((r) => setTimeout(r, 20));
      }
      for (let i = 0; i < 3; i++) await send(to, false, event, true, 640);
      await new Promise((r) => setTimeout(r, 60));
    },
    async tone(key) {
      if (!TONES[key]) throw new Error(`no tone for ${key}`);
      await sayUlaw(new Uint8Array([...soxUlaw(0.1, key), ...soxUlaw(0.1)]));
    },
    say: (ulaw) => sayUlaw(ulaw),
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };

  async function sayUlaw(audio: Uint8Array) {
    const to = remote;
    if (!to) throw new Error('no RTP from the appliance yet: nowhere to send audio');
    // Paced against one clock from the first packet, so a long clip does not drift late.
    const start = performance.now();
    for (let i = 0; i + 160 <= audio.length; i += 160) {
      const p = Buffer.alloc(12 + 160);
      p[0] = 0x80;
      p[1] = 0;
      p.writeUInt16BE(seq++ & 0xffff, 2);
      ts += 160;
      p.writeUInt32BE(ts, 4);
      p.writeUInt32BE(0x1234abcd, 8);
      p.set(audio.subarray(i, i + 160), 12);
      await new Promise<void>((r) => socket.send(p, to.port, to.address, () => r()));
      await new Promise((r) => setTimeout(r, Math.max(0, start + ((i + 160) / 8) - performance.now())));
    }
  }
}
