import { IllegalTransitionError } from '../call-model';
import type { Logger } from '../log';

/**
 * One modem's session, from opening its serial port to a line that sends and receives texts
 * (modem.ts drives it). Like sip/ua/attempt.ts: every change is an event whose edge
 * MODEM_REACTIONS names, checked against the drawing and logged.
 *
 *   closed ──start──> opening ──opened──> handshaking ──answered──> unlocking ──sim_ready──> configuring ──configured──> ready
 *                       ^  │                  │                        │    │                   │                           │
 *                       │  └── open_failed ───┴── no_answer / lost ────┴────┼───────────────────┴── no_answer / lost ───────┤
 *                       │                                                   │                                               v
 *                       └────────────────────────── reopen (after sms.reopen_s) ─────────────────────────────────────── lost
 *                                                                           └── sim_refused ──> failed
 *   any ──stop──> stopped
 *
 * `lost` covers an unplugged modem (its device vanished: the port's stream ended or a write
 * failed) and a modem that stopped answering; both are opened again until it answers, so a
 * modem plugged back in works without a restart. `failed` is a SIM that refused (a wrong PIN,
 * PUK needed): it is never tried again by itself, since each wrong PIN brings the SIM closer to
 * its PUK lock (TS 27.007 §8.3: three tries).
 */
export const MODEM_STATES = ['closed', 'opening', 'handshaking', 'unlocking', 'configuring', 'ready', 'lost', 'failed', 'stopped'] as const;
export type ModemState = (typeof MODEM_STATES)[number];

export const MODEM_EDGES: Record<ModemState, readonly ModemState[]> = {
  closed: ['opening', 'stopped'],
  opening: ['handshaking', 'lost', 'stopped'],
  handshaking: ['unlocking', 'lost', 'stopped'],
  unlocking: ['configuring', 'failed', 'lost', 'stopped'],
  configuring: ['ready', 'failed', 'lost', 'stopped'],
  ready: ['lost', 'failed', 'stopped'],
  lost: ['opening', 'stopped'],
  failed: ['stopped'],
  stopped: [],
};

export const MODEM_EVENTS = [
  'start',
  /** The serial port is open. */
  'opened',
  /** The device could not be opened (absent, no permission). */
  'open_failed',
  /** `AT` got `OK`. */
  'answered',
  /** A command got no answer within sms.at_timeout_s. */
  'no_answer',
  /** `+CPIN: READY`, asked or after our PIN. */
  'sim_ready',
  /** The SIM wants what we cannot give (no PIN configured, a wrong PIN, PUK) or is missing. */
  'sim_refused',
  /** Text mode and new-text indications set. */
  'configured',
  /** The port went away (unplugged, read or write error). */
  'lost',
  /** The reopen timer. */
  'reopen',
  'stop',
] as const;
export type ModemEvent = (typeof MODEM_EVENTS)[number];

/** A step still under way when its port was lost reports late: `lost`, `no_answer` and `opened` after the fact change nothing. */
export const MODEM_REACTIONS: Record<ModemState, Partial<Record<ModemEvent, ModemState | 'ignore'>>> = {
  closed: { start: 'opening', stop: 'stopped' },
  opening: { opened: 'handshaking', open_failed: 'lost', lost: 'lost', stop: 'stopped' },
  handshaking: { answered: 'unlocking', no_answer: 'lost', lost: 'lost', stop: 'stopped' },
  unlocking: { sim_ready: 'configuring', sim_refused: 'failed', no_answer: 'lost', lost: 'lost', stop: 'stopped' },
  configuring: { configured: 'ready', sim_refused: 'failed', no_answer: 'lost', lost: 'lost', stop: 'stopped' },
  ready: { sim_refused: 'failed', no_answer: 'lost', lost: 'lost', stop: 'stopped' },
  lost: { reopen: 'opening', lost: 'ignore', no_answer: 'ignore', stop: 'stopped' },
  failed: { lost: 'ignore', no_answer: 'ignore', sim_refused: 'ignore', stop: 'stopped' },
  stopped: { start: 'ignore', opened: 'ignore', open_failed: 'ignore', answered: 'ignore', no_answer: 'ignore', sim_ready: 'ignore', sim_refused: 'ignore', configured: 'ignore', lost: 'ignore', reopen: 'ignore', stop: 'ignore' },
};

export interface ModemSession {
  readonly state: ModemState;
  /** True when it moved (edge logged with `why`); false when ignored here; throws on an unlisted event. */
  on(event: ModemEvent, why: string): boolean;
}

export function modemEdge(from: ModemState, to: ModemState): void {
  if (!MODEM_EDGES[from].includes(to)) throw new IllegalTransitionError('modem', from, to);
}

export function createModemSession(log: Logger, onChange: (from: ModemState, to: ModemState, why: string) => void = () => {}): ModemSession {
  let state: ModemState = 'closed';
  return {
    get state() {
      return state;
    },
    on(event, why) {
      const to = MODEM_REACTIONS[state][event];
      if (to === undefined) throw new IllegalTransitionError('modem', state, event);
      if (to === 'ignore') return false;
      modemEdge(state, to);
      // Reopening a modem that is still away repeats lost→opening→lost: debug, not info.
      const quiet = (state === 'lost' && to === 'opening') || (state === 'opening' && to === 'lost');
      log[quiet ? 'debug' : 'info']({ from: state, to, why, event }, 'modem state');
      const from = state;
      state = to;
      onChange(from, to, why);
      return true;
    },
  };
}
