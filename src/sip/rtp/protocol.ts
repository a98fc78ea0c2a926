import type { AmdTimings, AmdUpdate } from '../../amd';
import type { MediaReport } from './echo-check';
import type { Codec } from './sdp';
import type { StreamMedia } from './stream';

/**
 * Messages between the SIP side (main thread, engine.ts) and the RTP worker (worker.ts).
 * Streams are named by their local RTP port: unique while a call holds it.
 */
export type ToRtpWorker =
  /** `counters`: media-counters.ts, the same buffer for every worker the engine starts. */
  | { t: 'init'; address: string; low: number; high: number; counters: SharedArrayBuffer }
  | { t: 'take'; request: number }
  | ({
      t: 'start';
      port: number;
      /** Report every packet's send time (the pacing benchmark); off in production. */
      recordSendTimes: boolean;
      /** Note played frames and count those that come back (echo-check.ts). */
      echoCheck?: boolean;
      /** Voicemail detection's timings (stream.ts); null: no analysis. */
      amd?: AmdTimings | null;
    } & StreamMedia)
  /** A new offer/answer for a running stream (stream.ts update()). */
  | ({ t: 'update'; port: number } & StreamMedia)
  /** `audio` is copied, never transferred: it may be the speech cache's own buffer. */
  | { t: 'play'; port: number; play: number; audio: Uint8Array; law: Codec }
  | { t: 'interrupt'; port: number }
  /** A keypad digit reached the call: the analysis hears a person. */
  | { t: 'analysis_key'; port: number }
  | { t: 'hold'; port: number; onHold: boolean }
  /** Stops the stream (if started), closes the socket and returns the port to the pool. */
  | { t: 'release'; port: number };

export type FromRtpWorker =
  | { t: 'taken'; request: number; port: number }
  | { t: 'taken'; request: number; code: 'RTP_PORTS_EXHAUSTED' }
  | { t: 'played'; port: number; play: number; result: 'played' | 'stopped' | 'failed' }
  | { t: 'digit'; port: number; digit: string }
  /** What the voicemail analysis found (src/amd). */
  | { t: 'amd'; port: number; update: AmdUpdate }
  /** Send times as epoch ms (performance.timeOrigin + now): each thread has its own origin. */
  | { t: 'sent'; port: number; times: number[] }
  /** The stream's packet counts (and echo counts), just before its 'released'. */
  | { t: 'report'; port: number; report: MediaReport }
  /** After the last 'sent' and 'digit' of that port: the port may be handed out again. */
  | { t: 'released'; port: number }
  | { t: 'error'; message: string };
