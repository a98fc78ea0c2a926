// A counting RTP sink for scripts/bench-calls, in its own process so its CPU is not billed
// to the dialer. Prints per-stream loss, and the arrival intervals of consecutive packets
// (what a far end sees, including this process's own scheduling), as JSON when stdin closes.
import { createSocket } from 'node:dgram';

const port = Number(process.argv[2]);
const streams = new Map<number, { first: number; last: number; count: number; wraps: number; at: number }>();
const arrivals: number[] = [];
/** Packet sizes seen: 172 bytes for plain G.711, 182 with SRTP's 10-byte tag. */
const sizes = new Set<number>();
const s = createSocket('udp4');
s.on('message', (b) => {
  if (b.length < 12) return;
  sizes.add(b.length);
  const seq = b.readUInt16BE(2);
  const ssrc = b.readUInt32BE(8);
  const at = performance.now();
  const st = streams.get(ssrc);
  if (!st) return void streams.set(ssrc, { first: seq, last: seq, count: 1, wraps: 0, at });
  if (seq < st.last && st.last - seq > 30_000) st.wraps++;
  if (seq === ((st.last + 1) & 0xffff)) arrivals.push(at - st.at);
  st.last = seq;
  st.at = at;
  st.count++;
});
s.bind({ port, address: '127.0.0.1', exclusive: true }, () => process.stdout.write('ready\n'));
process.stdin.resume();
process.stdin.on('end', () => {
  let expected = 0;
  let received = 0;
  for (const st of streams.values()) {
    expected += st.wraps * 65536 + st.last - st.first + 1;
    received += st.count;
  }
  arrivals.sort((a, b) => a - b);
  const q = (p: number) => arrivals[Math.min(arrivals.length - 1, Math.floor(p * arrivals.length))] ?? 0;
  const within = arrivals.filter((x) => Math.abs(x - 20) <= 2).length / Math.max(1, arrivals.length);
  const arrival = { p50: q(0.5), p99: q(0.99), max: arrivals.at(-1) ?? 0, within };
  process.stdout.write(JSON.stringify({ streams: streams.size, expected, received, arrival, sizes: [...sizes].sort((x, y) => x - y) }) + '\n');
  process.exit(0);
});
