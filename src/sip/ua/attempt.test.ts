import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../call-model';
import { ATTEMPT_EDGES, ATTEMPT_EVENTS, ATTEMPT_REACTIONS, ATTEMPT_STATES, createAttempt, type AttemptState } from './attempt';

/** An attempt brought to `state` along drawn edges (every state is reachable from inviting). */
function attemptIn(state: AttemptState, lines: Record<string, unknown>[] = []) {
  const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const a = createAttempt(log);
  const path: Record<AttemptState, AttemptState[]> = {
    inviting: [],
    ringing: ['ringing'],
    answered: ['answered'],
    playing: ['answered', 'playing'],
    hanging_up: ['answered', 'playing', 'hanging_up'],
    cancelling: ['cancelling'],
    ended: ['ended'],
  };
  for (const to of path[state]) a.transition(to, 'setup');
  expect(a.state).toBe(state);
  lines.length = 0;
  return a;
}

const drawn = ATTEMPT_STATES.flatMap((from) => ATTEMPT_EDGES[from].map((to) => [from, to] as const));
const undrawn = ATTEMPT_STATES.flatMap((from) => ATTEMPT_STATES.filter((to) => !ATTEMPT_EDGES[from].includes(to)).map((to) => [from, to] as const));

describe('the call attempt state machine', () => {
  it('draws the edges of the diagram and no more', () => {
    // Read off the diagram in attempt.ts, arrow by arrow.
    expect(drawn.map(([f, t]) => `${f}->${t}`).sort()).toEqual(
      [
        'inviting->ringing',
        'inviting->answered',
        'inviting->cancelling',
        'inviting->ended',
        'ringing->answered',
        'ringing->cancelling',
        'ringing->ended',
        'answered->playing',
        'answered->hanging_up',
        'answered->ended',
        'playing->hanging_up',
        'playing->ended',
        'hanging_up->ended',
        'cancelling->ended',
      ].sort(),
    );
    expect(undrawn).toHaveLength(7 * 7 - 14);
  });

  it.each(drawn)('allows %s -> %s and logs the edge', (from, to) => {
    const lines: Record<string, unknown>[] = [];
    const a = attemptIn(from, lines);
    a.transition(to, 'because');
    expect(a.state).toBe(to);
    expect(lines).toEqual([expect.objectContaining({ msg: 'attempt state', from, to, why: 'because' })]);
  });

  it.each(undrawn)('refuses %s -> %s: throws and stays', (from, to) => {
    const lines: Record<string, unknown>[] = [];
    const a = attemptIn(from, lines);
    let thrown: unknown;
    try {
      a.transition(to, 'a bug');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ machine: 'attempt', from, to });
    expect(a.state).toBe(from);
    expect(lines).toEqual([]);
  });
});

describe('events fed to the attempt (what sip.js, timers and place-call.ts report)', () => {
  it('every reaction is a drawn edge or an explicit ignore', () => {
    for (const from of ATTEMPT_STATES) {
      for (const to of Object.values(ATTEMPT_REACTIONS[from])) if (to !== 'ignore') expect(ATTEMPT_EDGES[from]).toContain(to);
    }
  });

  it('reads the SIP cases as the machine: a 180 moves only from inviting, the CANCEL race is ignored, crossing BYEs too', () => {
    const a = attemptIn('inviting');
    expect(a.on('progress', '180')).toBe(true);
    expect(a.on('progress', '183')).toBe(false); // a second 18x: still ringing, reported once
    expect(a.on('cancel', 'ring timeout')).toBe(true);
    expect(a.state).toBe('cancelling');
    expect([a.on('accepted', '200'), a.on('refused', '487'), a.on('cancel', 'shutdown')]).toEqual([false, false, false]);
    expect(a.on('cancel_done', 'CANCEL done')).toBe(true);
    expect(a.state).toBe('ended');

    const b = attemptIn('playing');
    expect(b.on('progress', '180')).toBe(false); // reordered after the 200
    expect(b.on('cancel', 'no audio')).toBe(false); // answered: never cancelled
    expect(b.on('hang_up', 'played')).toBe(true);
    expect(b.on('far_end_bye', 'crossing BYE')).toBe(false);
    expect(b.on('hang_up', 'again')).toBe(false);
    expect(b.on('bye_done', 'BYE done')).toBe(true);
    expect(b.state).toBe('ended');

    const c = attemptIn('answered');
    expect(c.on('far_end_bye', 'far end hung up')).toBe(true);
    expect([c.on('media_up', 'late'), c.on('hang_up', 'played')]).toEqual([false, false]); // gone before the stream started
  });

  const unlisted = ATTEMPT_STATES.flatMap((from) => ATTEMPT_EVENTS.filter((e) => ATTEMPT_REACTIONS[from][e] === undefined).map((e) => [from, e] as const));
  it.each(unlisted)('an event not listed for the state is a bug: %s on %s throws and stays', (from, event) => {
    const a = attemptIn(from);
    expect(() => a.on(event, 'a bug')).toThrow(IllegalTransitionError);
    expect(a.state).toBe(from);
  });
});
