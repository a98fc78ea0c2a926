/**
 * The RTP worker thread: every call's media socket, the 20 ms pacer and keypad detection
 * live here, away from the main thread, so a burst of SIP parsing or HTTP work there
 * cannot delay a packet. The main thread drives it through engine.ts (protocol.ts).
 *
 * This file is an entry point of its own: scripts/build lists it next to src/main.ts.
 */
import type { Socket } from 'node:dgram';
import { mediaCounterWriter } from './media-counters';
import { createPacer } from './pacer';
import { createPortPool, type PortPool } from './port-pool';
import type { FromRtpWorker, ToRtpWorker } from './protocol';
import { startRtpStream, type RtpStream } from './stream';

interface Channel {
  socket: Socket;
  stream: RtpStream | null;
  sendTimes: number[] | null;
}

/** Send times go to the main thread in batches of about a second of one stream. */
const SEND_TIMES_BATCH = 50;

const scope = self as unknown as {
  postMessage(message: FromRtpWorker): void;
  onmessage: ((event: MessageEvent<ToRtpWorker>) => void) | null;
};
const post = (m: FromRtpWorker) => scope.postMessage(m);
let counters: ReturnType<typeof mediaCounterWriter> | null = null;
const pacer = createPacer({
  blockLastMs: 2,
  onError: (e) => post({ t: 'error', message: `rtp send failed: ${String(e)}` }),
  onLate: () => counters?.lateTick(),
});
const channels = new Map<number, Channel>();
let pool: PortPool | null = null;

const flushSendTimes = (port: number, c: Channel) => {
  if (!c.sendTimes?.length) return;
  post({ t: 'sent', port, times: c.sendTimes });
  c.sendTimes = [];
};

async function handle(m: ToRtpWorker): Promise<void> {
  switch (m.t) {
    case 'init':
      pool = createPortPool(m.address, m.low, m.high);
      counters = mediaCounterWriter(m.counters);
      return;
    case 'take': {
      const taken = await pool!.take();
      if ('code' in taken) return post({ t: 'taken', request: m.request, code: taken.code });
      channels.set(taken.port, { socket: taken.socket, stream: null, sendTimes: null });
      return post({ t: 'taken', request: m.request, port: taken.port });
    }
    case 'start': {
      const c = channels.get(m.port);
      if (!c || c.stream) return;
      const port = m.port;
      c.sendTimes = m.recordSendTimes ? [] : null;
      c.stream = startRtpStream({
        socket: c.socket,
        remote: m.remote,
        codec: m.codec,
        payloadType: m.payloadType,
        telephoneEventPts: m.telephoneEventPts,
        srtp: m.srtp ?? null,
        echoCheck: m.echoCheck ?? false,
        amd: m.amd ?? null,
        onAmd: (update) => post({ t: 'amd', port, update }),
        pacer,
        onDigit: (digit) => post({ t: 'digit', port, digit }),
        onFailed: (e) => post({ t: 'error', message: `rtp stream on port ${port} stopped: ${String(e)}` }),
        onPacketSent: (at) => {
          counters?.packetSent();
          if (!c.sendTimes) return;
          c.sendTimes.push(performance.timeOrigin + at);
          if (c.sendTimes.length >= SEND_TIMES_BATCH) flushSendTimes(port, c);
        },
      });
      return;
    }
    case 'play': {
      const stream = channels.get(m.port)?.stream;
      const result = stream ? await stream.play(m.audio, m.law) : 'stopped';
      return post({ t: 'played', port: m.port, play: m.play, result });
    }
    case 'update':
      return channels.get(m.port)?.stream?.update({ remote: m.remote, codec: m.codec, payloadType: m.payloadType, telephoneEventPts: m.telephoneEventPts, srtp: m.srtp ?? null });
    case 'interrupt':
      return channels.get(m.port)?.stream?.interrupt();
    case 'analysis_key':
      return channels.get(m.port)?.stream?.analysisKey();
    case 'hold':
      return channels.get(m.port)?.stream?.hold(m.onHold);
    case 'release': {
      const c = channels.get(m.port);
      if (!c) return post({ t: 'released', port: m.port });
      channels.delete(m.port);
      if (c.stream) {
        c.stream.stop();
        post({ t: 'report', port: m.port, report: c.stream.report() });
      } else c.socket.close();
      flushSendTimes(m.port, c);
      post({ t: 'released', port: m.port });
      pool?.give(m.port);
      return;
    }
  }
}

scope.onmessage = (event) => {
  handle(event.data).catch((e) => post({ t: 'error', message: `rtp worker: ${String(e)}` }));
};
