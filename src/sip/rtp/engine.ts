import type { AmdTimings, AmdUpdate } from '../../amd';
import type { Logger } from '../../log';
import type { MediaReport } from './echo-check';
import { createMediaCounters, type MediaCounts } from './media-counters';
import type { FromRtpWorker, ToRtpWorker } from './protocol';
import type { Codec } from './sdp';
import type { StreamMedia } from './stream';

/**
 * The main thread's handle on one call's stream, which lives in the RTP worker (stream.ts
 * `RtpStream` is the worker-side stream itself): what a call's media does once answered.
 */
export interface RtpStreamHandle {
  /** The codec the stream sends in now (an accepted offer/answer may change it: update()). */
  readonly codec: Codec;
  /**
   * Plays G.711 bytes written in `law` (the worker converts frames if the codec changes
   * meanwhile); resolves when the last frame left ('played'), when interrupted or released
   * ('stopped'), or 'failed' when the media worker died.
   */
  play(audio: Uint8Array, law: Codec): Promise<PlayResult>;
  /** Applies a new offer/answer to the running stream: no gap in sequence or timestamp. */
  update(media: StreamMedia): void;
  /** Queued audio is dropped at once (remote BYE, a key press); silence continues. */
  interrupt(): void;
  /** Sends nothing while held; the message plays on unheard (see stream.ts). */
  hold(onHold: boolean): void;
  /** A keypad digit reached the call: the voicemail analysis (if running) hears a person. */
  analysisKey(): void;
}

export type PlayResult = 'played' | 'stopped' | 'failed';

export interface StreamOptions extends StreamMedia {
  onDigit(digit: string): void;
  /** Per-packet send times (ms on this thread's performance.now clock): benchmarks only. */
  onPacketSent?: (at: number) => void;
  /** Note played frames and count those that come back (the voice-path self-test, echo-check.ts). */
  echoCheck?: boolean;
  /** The stream's counts when its port is released, before release() resolves. */
  onReport?: (report: MediaReport) => void;
  /** Voicemail detection (src/amd) with these timings, its findings to `onAmd`; absent: none. */
  amd?: AmdTimings | null;
  onAmd?: (update: AmdUpdate) => void;
}

/**
 * The main thread's handle on the RTP worker (worker.ts): a port is taken for a call's SDP
 * offer, a stream started on it once answered, and the port released when the call ends.
 * One engine per trunk; `close()` ends the worker. If the worker dies, every waiting play
 * resolves 'failed' (the call ends as a media failure and is retried), ports it handed out
 * are dead (their streams fail at once; releasing them touches nothing), and the next call
 * starts a fresh worker.
 */
export interface RtpEngine {
  take(): Promise<RtpPort | { code: 'RTP_PORTS_EXHAUSTED' | 'RTP_WORKER_FAILED' }>;
  /** Packets sent and late ticks since the engine was made, across worker restarts. */
  counts(): MediaCounts;
  close(): Promise<void>;
}

/** One call's RTP port, held from the SDP offer to the end of the call. */
export interface RtpPort {
  readonly port: number;
  start(o: StreamOptions): RtpStreamHandle;
  /** Resolves once the worker let the port go, after the stream's last reports arrived. */
  release(): Promise<void>;
}

// Bundled (scripts/build), the worker is an extra entry point, named relative to src/
// (the entry points' common folder); from source it sits next to this file.
const WORKER_URL = import.meta.url.includes('/$bunfs/') ? './sip/rtp/worker.ts' : new URL('./worker.ts', import.meta.url).href;

interface Waiting {
  takes: Map<number, (r: { port: number } | { code: 'RTP_PORTS_EXHAUSTED' | 'RTP_WORKER_FAILED' }) => void>;
  plays: Map<number, (r: PlayResult) => void>;
  releases: Map<number, () => void>;
}
const nobodyWaiting = (): Waiting => ({ takes: new Map(), plays: new Map(), releases: new Map() });

export function createRtpEngine(o: {
  address: string;
  low: number;
  high: number;
  log: Logger;
  /** Tests only: another worker script (one that dies on purpose). */
  workerUrl?: string;
}): RtpEngine {
  let worker: Worker | null = null;
  let waiting = nobodyWaiting();
  const counters = createMediaCounters();
  const streams = new Map<number, StreamOptions>();
  let nextId = 1;
  /** Counts workers: a port belongs to the one that handed it out. */
  let generation = 0;

  const send = (m: ToRtpWorker) => spawned().postMessage(m);

  const onMessage = (m: FromRtpWorker) => {
    switch (m.t) {
      case 'taken':
        waiting.takes.get(m.request)?.('port' in m ? { port: m.port } : { code: m.code });
        waiting.takes.delete(m.request);
        return;
      case 'played':
        waiting.plays.get(m.play)?.(m.result);
        waiting.plays.delete(m.play);
        return;
      case 'digit':
        streams.get(m.port)?.onDigit(m.digit);
        return;
      case 'amd':
        streams.get(m.port)?.onAmd?.(m.update);
        return;
      case 'sent': {
        const report = streams.get(m.port)?.onPacketSent;
        if (report) for (const t of m.times) report(t - performance.timeOrigin);
        return;
      }
      case 'report':
        streams.get(m.port)?.onReport?.(m.report);
        return;
      case 'released':
        streams.delete(m.port);
        waiting.releases.get(m.port)?.();
        waiting.releases.delete(m.port);
        return;
      case 'error':
        o.log.error({ error: m.message }, 'rtp worker error');
        return;
    }
  };

  /**
   * The current worker is gone (died, or closed): its ports are dead from now on and all
   * that waited on it is answered, plays with `playResult`. The next use starts a new one.
   */
  const forgetWorker = (playResult: PlayResult) => {
    const was = waiting;
    waiting = nobodyWaiting();
    worker = null;
    generation++;
    streams.clear();
    for (const r of was.takes.values()) r({ code: 'RTP_WORKER_FAILED' });
    for (const r of was.plays.values()) r(playResult);
    for (const r of was.releases.values()) r();
  };

  const died = (reason: string) => {
    o.log.error({ reason }, 'rtp worker died; calls in progress end as media failures');
    forgetWorker('failed');
  };

  function spawned(): Worker {
    if (worker) return worker;
    const w = new Worker(o.workerUrl ?? WORKER_URL);
    w.onmessage = (e: MessageEvent<FromRtpWorker>) => onMessage(e.data);
    w.onerror = (e) => {
      if (worker === w) died((e as ErrorEvent).message ?? 'error');
      w.terminate();
    };
    w.addEventListener('close', () => {
      if (worker === w) died('exited');
    });
    worker = w;
    w.postMessage({ t: 'init', address: o.address, low: o.low, high: o.high, counters: counters.buffer } satisfies ToRtpWorker);
    return w;
  }

  /** A port handed out by the worker of generation `gen`: dead once that worker is gone. */
  const lease = (port: number, gen: number): RtpPort => {
    const alive = () => gen === generation && worker !== null;
    return {
      port,
      start(s) {
        if (alive()) {
          streams.set(port, s);
          send({ t: 'start', port, remote: s.remote, codec: s.codec, payloadType: s.payloadType, telephoneEventPts: s.telephoneEventPts, srtp: s.srtp ?? null, recordSendTimes: !!s.onPacketSent, echoCheck: s.echoCheck ?? false, amd: s.amd ?? null });
        }
        let codec = s.codec;
        return {
          get codec() {
            return codec;
          },
          update(media) {
            codec = media.codec;
            if (alive()) send({ t: 'update', port, ...media });
          },
          play(audio, law) {
            if (!alive()) return Promise.resolve('failed');
            if (audio.length === 0) return Promise.resolve('played');
            if (!streams.has(port)) return Promise.resolve('stopped'); // released already
            const play = nextId++;
            return new Promise((resolve) => {
              waiting.plays.set(play, resolve);
              send({ t: 'play', port, play, audio, law });
            });
          },
          interrupt() {
            if (alive()) send({ t: 'interrupt', port });
          },
          hold(onHold) {
            if (alive()) send({ t: 'hold', port, onHold });
          },
          analysisKey() {
            if (alive()) send({ t: 'analysis_key', port });
          },
        };
      },
      release() {
        // A dead worker's port went with it: the same number may be a new call's by now.
        if (!alive()) return Promise.resolve();
        // The stream's callbacks stay until the worker answers 'released' (its last reports).
        return new Promise<void>((resolve) => {
          const before = waiting.releases.get(port);
          waiting.releases.set(port, () => (before?.(), resolve()));
          send({ t: 'release', port });
        });
      },
    };
  };

  return {
    counts: counters.read,
    take() {
      const request = nextId++;
      const gen = generation; // the worker that answers: the current one, or the one send() starts
      return new Promise((resolve) => {
        waiting.takes.set(request, (r) => resolve('port' in r ? lease(r.port, gen) : r));
        send({ t: 'take', request });
      });
    },
    async close() {
      const w = worker;
      forgetWorker('stopped');
      w?.terminate();
    },
  };
}
