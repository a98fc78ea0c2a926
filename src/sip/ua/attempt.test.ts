import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../call-model';
import { ATTEMPT_EDGES, ATTEMPT_EVENTS, ATTEMPT_REACTIONS, ATTEMPT_STATES, attemptEdge, createAttempt, type AttemptEvent, type AttemptState } from './attempt';

/** An attempt brought to `state` by events, as place-call.ts feeds them (every state is reachable from inviting). */
function attemptIn(state: AttemptState, lines: Record<string, unknown>[] = []) {
  const log = pino({ level: 'debug' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const a = createAttempt(log);
  const path: Record<AttemptState, AttemptEvent[]> = {
    inviting: [],
    ringing: ['progress'],
    answered: ['accepted'],
    playing: ['accepted', 'media_up'],
    hanging_up: ['accepted', 'media_up', 'hang_up'],
    cancelling: ['cancel'],
    ended: ['refused'],
  };
  for (const event of path[state]) a.on(event, 'setup');
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

  it.each(drawn)('%s -> %s is taken by an event, and the edge is logged', (from, to) => {
    const event = ATTEMPT_EVENTS.find((e) => ATTEMPT_REACTIONS[from][e] === to);
    expect(event).toBeDefined(); // no drawn edge is left that nothing takes
    const lines: Record<string, unknown>[] = [];
    const a = attemptIn(from, lines);
    expect(a.on(event!, 'because')).toBe(true);
    expect(a.state).toBe(to);
    expect(lines).toEqual([expect.objectContaining({ msg: 'attempt state', from, to, why: 'because', event })]);
  });

  it.each(undrawn)('refuses %s -> %s: the edge check throws', (from, to) => {
    let thrown: unknown;
    try {
      attemptEdge(from, to);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(IllegalTransitionError);
    expect(thrown).toMatchObject({ machine: 'attempt', from, to });
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
  it.each(unlisted)('an event not listed for the state is a bug: %s on %s throws, stays and logs no edge', (from, event) => {
    const lines: Record<string, unknown>[] = [];
    const a = attemptIn(from, lines);
    expect(() => a.on(event, 'a bug')).toThrow(IllegalTransitionError);
    expect(a.state).toBe(from);
    expect(lines).toEqual([]);
  });
});
