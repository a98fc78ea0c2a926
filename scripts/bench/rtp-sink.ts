// A counting RTP sink for scripts/bench-calls, in its own process so its CPU is not billed
// to the dialer. Prints per-stream loss as JSON when stdin closes.
import { createSocket } from 'node:dgram';

const port = Number(process.argv[2]);
const streams = new Map<number, { first: number; last: number; count: number; wraps: number }>();
const s = createSocket('udp4');
s.on('message', (b) => {
  if (b.length < 12) return;
  const seq = b.readUInt16BE(2);
  const ssrc = b.readUInt32BE(8);
  const st = streams.get(ssrc);
  if (!st) return void streams.set(ssrc, { first: seq, last: seq, count: 1, wraps: 0 });
  if (seq < st.last && st.last - seq > 30_000) st.wraps++;
  st.last = seq;
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
  process.stdout.write(JSON.stringify({ streams: streams.size, expected, received }) + '\n');
  process.exit(0);
});
