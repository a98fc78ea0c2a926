// A far end's ear for RTP, in a process of its own: it notes when each packet arrives (unix
// ms, sub-millisecond, comparable across processes), so a pause of the test's own process
// (its event loop, its garbage collector) is never taken for a gap in the appliance's media.
// Prints `port N` once bound, `count N` every 100 ms, and the arrival times as JSON once its
// standard input closes; then it exits.
import { createSocket } from 'node:dgram';

const arrivals: number[] = [];
const socket = createSocket('udp4');
socket.on('message', () => arrivals.push(performance.timeOrigin + performance.now()));
socket.bind(0, '127.0.0.1', () => process.stdout.write(`port ${socket.address().port}\n`));
const counting = setInterval(() => process.stdout.write(`count ${arrivals.length}\n`), 100);
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(counting);
  socket.close();
  process.stdout.write(`arrivals ${JSON.stringify(arrivals)}\n`, () => process.exit(0));
});
