import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../call-model';
import { ATTEMPT_EDGES, ATTEMPT_STATES, createAttempt, type AttemptState } from './attempt';

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
