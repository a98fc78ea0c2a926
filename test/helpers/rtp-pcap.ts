import { writeFileSync } from 'node:fs';

/**
 * A pcap file (libpcap format, Ethernet, IPv4/UDP) holding `audio` as 20 ms RTP packets of
 * payload type `pt`, 20 ms apart: what sipp's `play_pcap_audio` sends as the far end's voice
 * (it takes the UDP payloads and their timing; addresses and ports are its own).
 */
export function writeRtpPcap(path: string, audio: Uint8Array, pt: 0 | 8): void {
  const chunks: Buffer[] = [];
  const global = Buffer.alloc(24);
  global.writeUInt32LE(0xa1b2c3d4, 0);
  global.writeUInt16LE(2, 4);
  global.writeUInt16LE(4, 6);
  global.writeUInt32LE(65535, 16);
  global.writeUInt32LE(1, 20); // LINKTYPE_ETHERNET
  chunks.push(global);
  const ssrc = 0x4a6d6421;
  for (let i = 0, n = 0; i < audio.length; i += 160, n++) {
    const payload = audio.subarray(i, i + 160);
    const rtp = Buffer.alloc(12 + payload.length);
    rtp[0] = 0x80;
    rtp[1] = (n === 0 ? 0x80 : 0) | pt;
    rtp.writeUInt16BE(n & 0xffff, 2);
    rtp.writeUInt32BE((n * 160) >>> 0, 4);
    rtp.writeUInt32BE(ssrc, 8);
    rtp.set(payload, 12);
    const udp = Buffer.alloc(8);
    udp.writeUInt16BE(40000, 0);
    udp.writeUInt16BE(40002, 2);
    udp.writeUInt16BE(8 + rtp.length, 4);
    const ip = Buffer.alloc(20);
    ip[0] = 0x45;
    ip.writeUInt16BE(20 + 8 + rtp.length, 2);
    ip[8] = 64;
    ip[9] = 17;
    ip.set([127, 0, 0, 1], 12);
    ip.set([127, 0, 0, 1], 16);
    let sum = 0;
    for (let k = 0; k < 20; k += 2) sum += ip.readUInt16BE(k);
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    ip.writeUInt16BE(~sum & 0xffff, 10);
    const eth = Buffer.alloc(14);
    eth.writeUInt16BE(0x0800, 12);
    const frame = Buffer.concat([eth, ip, udp, rtp]);
    const record = Buffer.alloc(16);
    const us = n * 20_000;
    record.writeUInt32LE(Math.floor(us / 1e6), 0);
    record.writeUInt32LE(us % 1e6, 4);
    record.writeUInt32LE(frame.length, 8);
    record.writeUInt32LE(frame.length, 12);
    chunks.push(record, frame);
  }
  writeFileSync(path, Buffer.concat(chunks));
}
