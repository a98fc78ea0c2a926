// scripts/bench-calls: the three telephony measurements of issue 4. See the wrapper.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { configSchema } from '../../src/config';
import { silentLogger } from '../../src/log';
import { createTelephone } from '../../src/sip';
import type { CallAudio } from '../../src/call-model';
import { applianceDir, provision } from '../../test/helpers/appliance';
import { startKamailio } from '../../test/helpers/pbx';
import { freePort } from '../../test/helpers/ports';
import { startSipp } from '../../test/helpers/sipp';

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};
const audio = (frames: number): CallAudio => {
  const b = new Uint8Array(frames * 160).fill(0x55);
  return { pcmu: b, pcma: b, durationMs: frames * 20 };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const only = process.env.ONLY ?? 'setup,stream,latency,failover';
// SRTP=1: the trunk keys SRTP by SDES (docs/telephony.md "SIP over TLS and SRTP"); the far end's
// SDP carries a crypto line. The sink counts by sequence number, which SRTP leaves in the clear.
const srtp = process.env.SRTP === '1';
const media = srtp
  ? { profile: 'RTP/SAVP', media_attr: `a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${Buffer.alloc(30, 7).toString('base64')}` }
  : { profile: 'RTP/AVP', media_attr: 'a=sendrecv' };

async function trunk(ringMs: number, calls: number) {
  const sink = await freePort();
  const sinkProc = spawn('node_modules/.bin/bun', ['scripts/bench/rtp-sink.ts', String(sink)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let sinkOut = '';
  sinkProc.stdout!.on('data', (d) => (sinkOut += d));
  while (!sinkOut.includes('ready')) await sleep(20);
  const sipp = await startSipp({ scenario: 'bench-answer.xml', calls, keys: { ring_ms: ringMs }, fill: { sink_port: sink, ...media }, extra: ['-max_socket', '10000'] });
  const pbx = await startKamailio({ target: `127.0.0.1:${sipp.port}`, auth: false, user: 'bench', password: '' });
  const config = configSchema.parse({
    sip: { server: `127.0.0.1:${pbx.port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: '30000-39998', t1_ms: 500, srtp: srtp ? 'sdes' : 'off' },
  });
  const sent = new Map<string, number[]>();
  const phone = createTelephone(config.sip, 0, {
    log: silentLogger(),
    onPacketSent: (id, at) => {
      let a = sent.get(id);
      if (!a) sent.set(id, (a = []));
      a.push(at);
    },
  });
  await phone.start();
  const dial = (frames: number) =>
    phone.dial({
      number: '5321234567',
      audio: async () => audio(frames),
      acknowledgedAudio: async () => audio(1),
      ringTimeoutMs: 30_000,
      answerDelayMs: 0,
      progress: { ringing() {}, answered() {}, digit() {} },
    });
  const close = async () => {
    await phone.stop();
    await pbx.stop();
    await sipp.stop();
    sinkProc.stdin!.end();
    await new Promise((r) => sinkProc.on('exit', r));
    return JSON.parse(sinkOut.split('\n').filter(Boolean).at(-1)!) as {
      streams: number;
      expected: number;
      received: number;
      arrival: { p50: number; p99: number; max: number; within: number };
      sizes: number[];
    };
  };
  return { dial, sent, close };
}

if (only.includes('setup')) {
  for (const rate of [100, 150, 200]) {
    const seconds = 5;
    const t = await trunk(0, rate * seconds + 10);
    const start = performance.now();
    const calls: Promise<{ code: string }>[] = [];
    for (let i = 0; i < rate * seconds; i++) {
      const due = start + (i * 1000) / rate; // a schedule, not chained timers
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      calls.push(t.dial(1));
    }
    const offeredS = (performance.now() - start) / 1000;
    const outcomes = await Promise.all(calls);
    const ok = outcomes.filter((o) => o.code === 'COMPLETED').length;
    await t.close();
    console.log(
      `setup: offered ${rate}/s for ${seconds} s (${(calls.length / offeredS).toFixed(1)} attempts/s achieved): ` +
        `${ok}/${calls.length} answered and completed (${((100 * ok) / calls.length).toFixed(2)} %)`,
    );
  }
}

if (only.includes('stream')) {
  const n = 200;
  const t = await trunk(0, n + 5);
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  const calls: Promise<{ code: string }>[] = [];
  for (let i = 0; i < n; i++) {
    calls.push(t.dial(500)); // 10 s of audio each
    await sleep(5);
  }
  const outcomes = await Promise.all(calls);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - w0;
  const sink = await t.close();
  const intervals: number[] = [];
  let sentPackets = 0;
  for (const times of t.sent.values()) {
    sentPackets += times.length;
    for (let i = 1; i < times.length; i++) intervals.push(times[i]! - times[i - 1]!);
  }
  // Steady state: after the last stream started and before the first one ended (no SIP work).
  const all = [...t.sent.values()];
  const from = Math.max(...all.map((a) => a[0]!));
  const to = Math.min(...all.map((a) => a.at(-1)!));
  const steady: number[] = [];
  for (const times of all) for (let i = 1; i < times.length; i++) if (times[i - 1]! >= from && times[i]! <= to) steady.push(times[i]! - times[i - 1]!);
  const ok = outcomes.filter((o) => o.code === 'COMPLETED').length;
  console.log(`stream: ${n} concurrent calls, ${ok} completed, ${t.sent.size} RTP streams, ${sentPackets} packets sent`);
  console.log(
    `  inter-packet interval: p1 ${q(intervals, 0.01).toFixed(2)} ms, p50 ${q(intervals, 0.5).toFixed(2)} ms, ` +
      `p99 ${q(intervals, 0.99).toFixed(2)} ms, max ${Math.max(...intervals).toFixed(2)} ms; ` +
      `within 20±2 ms: ${((100 * intervals.filter((x) => Math.abs(x - 20) <= 2).length) / intervals.length).toFixed(2)} %`,
  );
  console.log(
    `  steady state (${((to - from) / 1000).toFixed(1)} s with all ${n} up): p1 ${q(steady, 0.01).toFixed(2)} ms, p50 ${q(steady, 0.5).toFixed(2)} ms, ` +
      `p99 ${q(steady, 0.99).toFixed(2)} ms, max ${Math.max(...steady).toFixed(2)} ms; within 20±2 ms: ${((100 * steady.filter((x) => Math.abs(x - 20) <= 2).length) / steady.length).toFixed(2)} %`,
  );
  console.log(`  sink: ${sink.streams} streams, ${sink.received} received of ${sink.expected} by sequence number (${sink.expected - sink.received} lost); sent ${sentPackets}; packet sizes ${sink.sizes.join(', ')} bytes${srtp ? ' (SRTP)' : ''}`);
  const a = sink.arrival;
  console.log(
    `  arrival interval at the sink (whole run): p50 ${a.p50.toFixed(2)} ms, p99 ${a.p99.toFixed(2)} ms, max ${a.max.toFixed(2)} ms; ` +
      `within 20±2 ms: ${(100 * a.within).toFixed(2)} %`,
  );
  console.log(`  dialer CPU: ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(1)} % of one core over ${(wall / 1000).toFixed(1)} s`);
  // Both threads (SIP and the RTP worker) are one process: its peak resident memory.
  console.log(`  dialer peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

if (only.includes('latency')) {
  // A stub PBX that notes when each INVITE arrives and refuses it (603: final, no retry).
  const stub = createSocket('udp4');
  const arrived = new Map<string, number>();
  stub.on('message', (m, r) => {
    const text = m.toString();
    if (!text.startsWith('INVITE ')) return;
    arrived.set(/^INVITE sip:(\d+)@/.exec(text)![1]!, performance.now());
    const head = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
    const keep = head.filter((l) => /^(via|from|to|call-id|cseq):/i.test(l)).map((l) => (/^to:/i.test(l) ? `${l};tag=stub` : l));
    stub.send(['SIP/2.0 603 Decline', ...keep, 'Content-Length: 0', '', ''].join('\r\n'), r.port, r.address);
  });
  await new Promise<void>((r) => stub.bind(0, '127.0.0.1', () => r()));
  const a = applianceDir({
    sip: { server: `127.0.0.1:${stub.address().port}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: '40000-40998' },
    calls: { max_attempts: 1 },
  });
  const acc = provision(a, 'enterprise', ['--monthly-credit', '100000']);
  const app = await a.start();
  const n = 300;
  const answeredAt = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const number = `53${String(10_000_000 + i).slice(-8)}`;
    // Half through the webhook (X-Webhook-Key), half through POST /api/call.
    const res =
      i % 2 === 0
        ? await fetch(`${app.url}/webhook/receive`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-webhook-key': acc.webhookKey },
            body: JSON.stringify({ phone_number: number, error_message: 'bench' }),
          })
        : await fetch(`${app.url}/api/call`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: number, error_message: 'bench' }),
          });
    answeredAt.set(number, performance.now());
    if (res.status !== 200) throw new Error(`alert refused: ${res.status} ${await res.text()}`);
    await res.text();
    await sleep(20);
  }
  await sleep(1000);
  await app.stop();
  stub.close();
  const numbers = [...answeredAt.keys()];
  for (const [name, parity] of [['webhook', 0], ['api/call', 1]] as const) {
    const lat = numbers.filter((k, i) => i % 2 === parity && arrived.has(k)).map((k) => arrived.get(k)! - answeredAt.get(k)!);
    console.log(
      `latency: ${name} 200 → INVITE on the wire, ${lat.length}/${n / 2} INVITEs seen: ` +
        `p50 ${q(lat, 0.5).toFixed(2)} ms, p99 ${q(lat, 0.99).toFixed(2)} ms, max ${Math.max(...lat).toFixed(2)} ms ` +
        `(negative: the INVITE left before the client had read the 200)`,
    );
  }
}
if (only.includes('failover')) {
  // Two trunks (docs/telephony.md "SIP trunks: several, in order"), each a stub PBX in this
  // process: the first fails every INVITE (503 at once, or silence), the second notes when each
  // INVITE arrives and declines it (603: final, no retry). Failover latency = the INVITE's arrival
  // on the second − the 503's departure from the first (or, for silence, the first INVITE's
  // arrival).
  const stubPbx = (answer: '503 Service Unavailable' | '603 Decline' | null) => {
    const socket = createSocket('udp4');
    const seen = new Map<string, number>();
    socket.on('message', (m, r) => {
      const text = m.toString();
      if (!text.startsWith('INVITE ')) return;
      const number = /^INVITE sip:(\d+)@/.exec(text)![1]!;
      if (!seen.has(number)) seen.set(number, performance.now());
      if (!answer) return;
      const head = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
      const keep = head.filter((l) => /^(via|from|to|call-id|cseq):/i.test(l)).map((l) => (/^to:/i.test(l) ? `${l};tag=stub` : l));
      socket.send([`SIP/2.0 ${answer}`, ...keep, 'Content-Length: 0', '', ''].join('\r\n'), r.port, r.address, () => seen.set(number, performance.now()));
    });
    return new Promise<{ port: number; seen: Map<string, number>; close: () => void }>((resolve) =>
      socket.bind(0, '127.0.0.1', () => resolve({ port: socket.address().port, seen, close: () => socket.close() })),
    );
  };
  const run = async (label: string, first: '503 Service Unavailable' | null, n: number, spacingMs: number, inviteTimeoutS?: number) => {
    const a1 = await stubPbx(first);
    const a2 = await stubPbx('603 Decline');
    const a = applianceDir({
      sip: {
        local_address: '127.0.0.1',
        local_port: 0,
        rtp_ports: '41000-41998',
        options_interval_s: 0, // the stubs answer no OPTIONS: unprobed, both trunks stay `none` and are tried in order
        trunks: [
          { name: 'first', server: `127.0.0.1:${a1.port}`, ...(inviteTimeoutS ? { invite_timeout_s: inviteTimeoutS } : {}) },
          { name: 'second', server: `127.0.0.1:${a2.port}` },
        ],
      },
      calls: { max_attempts: 1, max_concurrent: 50 },
    });
    const acc = provision(a, 'enterprise', ['--monthly-credit', '100000']);
    const app = await a.start();
    const numbers: string[] = [];
    for (let i = 0; i < n; i++) {
      const number = `54${String(10_000_000 + i).slice(-8)}`;
      numbers.push(number);
      const res = await fetch(`${app.url}/webhook/receive`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-key': acc.webhookKey },
        body: JSON.stringify({ phone_number: number, error_message: 'bench' }),
      });
      if (res.status !== 200) throw new Error(`alert refused: ${res.status} ${await res.text()}`);
      await res.text();
      await sleep(spacingMs);
    }
    const deadline = Date.now() + 60_000;
    while (numbers.some((k) => !a2.seen.has(k)) && Date.now() < deadline) await sleep(100);
    await app.stop();
    a1.close();
    a2.close();
    const lat = numbers.filter((k) => a1.seen.has(k) && a2.seen.has(k)).map((k) => a2.seen.get(k)! - a1.seen.get(k)!);
    console.log(
      `failover: ${label}, ${lat.length}/${n} calls moved: p50 ${q(lat, 0.5).toFixed(2)} ms, p99 ${q(lat, 0.99).toFixed(2)} ms, max ${Math.max(...lat).toFixed(2)} ms`,
    );
  };
  await run('first trunk answers 503 (503 sent → INVITE on the second)', '503 Service Unavailable', 300, 20);
  await run('first trunk silent, invite_timeout_s = 2 (INVITE on the first → INVITE on the second)', null, 40, 50, 2);
  await run('first trunk silent, no invite_timeout_s: Timer B, 64 × T1 = 32 s (INVITE on the first → INVITE on the second)', null, 10, 50);
}
process.exit(0);
