/**
 * What the RTP worker counts for /metrics: packets sent and late pacer ticks. Kept in
 * memory shared with the main thread, so a scrape reads them without a message and the
 * worker adds to them without one per packet. The main thread owns the buffer and hands
 * the same one to every worker it starts, so the counts run on across a worker restart.
 */
export interface MediaCounts {
  packetsSent: number;
  lateTicks: number;
}

const PACKETS_SENT = 0;
const LATE_TICKS = 1;

export function createMediaCounters(): { buffer: SharedArrayBuffer; read(): MediaCounts } {
  const buffer = new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT);
  const cells = new BigInt64Array(buffer);
  return {
    buffer,
    read: () => ({ packetsSent: Number(Atomics.load(cells, PACKETS_SENT)), lateTicks: Number(Atomics.load(cells, LATE_TICKS)) }),
  };
}

/** The worker's side. */
export function mediaCounterWriter(buffer: SharedArrayBuffer): { packetSent(): void; lateTick(): void } {
  const cells = new BigInt64Array(buffer);
  return {
    packetSent: () => void Atomics.add(cells, PACKETS_SENT, 1n),
    lateTick: () => void Atomics.add(cells, LATE_TICKS, 1n),
  };
}
