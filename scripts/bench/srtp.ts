// scripts/bench-srtp: what SRTP (src/sip/rtp/srtp.ts) costs per 20 ms G.711 packet. See the wrapper.
import { encodeRtp } from '../../src/sip/rtp/packet';
import { createSrtpReceiver, createSrtpSender } from '../../src/sip/rtp/srtp';

const N = Number(process.env.PACKETS ?? 500_000);
const key = new Uint8Array(30).map((_, i) => i * 7);
const frame = new Uint8Array(160).map((_, i) => i & 0xff);
const rtp = (seq: number) => encodeRtp({ payloadType: 0, marker: false, sequence: seq & 0xffff, timestamp: (seq * 160) >>> 0, ssrc: 0x1234 }, frame);

function measure(name: string, run: (i: number) => unknown): number {
  for (let i = 0; i < 20_000; i++) run(i); // warm up (JIT)
  const t0 = performance.now();
  for (let i = 0; i < N; i++) run(i);
  const us = ((performance.now() - t0) * 1000) / N;
  console.log(`${name.padEnd(40)} ${us.toFixed(3)} µs/packet  (${((us / 20_000) * 100).toFixed(4)} % of the 20 ms pacing budget)`);
  return us;
}

const plain = measure('encode RTP (plain, for comparison)', (i) => rtp(i));
const tx = createSrtpSender(key);
const protect = measure('encode RTP + SRTP protect', (i) => tx.protect(rtp(i)));
const packets = Array.from({ length: 65_536 }, (_, i) => createSrtpSender(key).protect(rtp(i)));
// Unprotect in order through a wrap: a fresh receiver per lap so the replay list never refuses.
let rx = createSrtpReceiver(key);
measure('SRTP unprotect (auth check + decrypt)', (i) => {
  if (i % 65_536 === 0) rx = createSrtpReceiver(key);
  return rx.unprotect(packets[i % 65_536]!);
});
console.log(`SRTP adds ${(protect - plain).toFixed(3)} µs per sent packet; 200 calls send 10,000 packets/s: ${(((protect - plain) * 10_000) / 1e4).toFixed(2)} % of one core`);
