import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../call-model';
import { AMD_EVENTS, AMD_REACTIONS, AMD_STATES, createAmdMachine, verdictOf, type AmdEvent, type AmdState } from './machine';

/** A machine brought to `state` by events, as detector.ts feeds them. */
function machineIn(state: AmdState) {
  const path: Record<AmdState, AmdEvent[]> = {
    initial_silence: [],
    word: ['speech'],
    gap: ['speech', 'pause'],
    human: ['key'],
    unknown: ['silence_limit'],
    greeting: ['speech', 'long_greeting'],
    beep: ['beep'],
    recording: ['beep', 'beep_end'],
  };
  const m = createAmdMachine();
  for (const e of path[state]) m.on(e);
  expect(m.state).toBe(state);
  return m;
}

const edges = AMD_STATES.flatMap((from) => AMD_EVENTS.flatMap((e) => (typeof AMD_REACTIONS[from][e] === 'string' && AMD_REACTIONS[from][e] !== 'ignore' ? [`${from} -${e}-> ${AMD_REACTIONS[from][e]}`] : [])));

describe('the voicemail detection state machine', () => {
  it('draws the edges of the diagram in machine.ts and no more', () => {
    expect(edges.sort()).toEqual(
      [
        'initial_silence -speech-> word',
        'initial_silence -silence_limit-> unknown',
        'initial_silence -timeout-> unknown',
        'initial_silence -key-> human',
        'initial_silence -beep-> beep',
        'word -pause-> gap',
        'word -long_greeting-> greeting',
        'word -too_many_words-> greeting',
        'word -timeout-> unknown',
        'word -key-> human',
        'word -beep-> beep',
        'gap -speech-> word',
        'gap -greeting_end-> human',
        'gap -long_greeting-> greeting',
        'gap -timeout-> unknown',
        'gap -key-> human',
        'gap -beep-> beep',
        'greeting -greeting_end-> recording',
        'greeting -beep-> beep',
        'greeting -deadline-> recording',
        'beep -beep_end-> recording',
        'beep -deadline-> recording',
        'recording -beep-> beep',
      ].sort(),
    );
  });

  it.each(AMD_STATES.flatMap((s) => AMD_EVENTS.map((e) => [s, e] as const)))('%s on %s: the edge, ignored, or refused', (state, event) => {
    const m = machineIn(state);
    const to = AMD_REACTIONS[state][event];
    if (to === undefined) {
      expect(() => m.on(event)).toThrow(IllegalTransitionError);
      expect(m.state).toBe(state);
    } else if (to === 'ignore') {
      expect(m.on(event)).toBe(false);
      expect(m.state).toBe(state);
    } else {
      expect(m.on(event)).toBe(true);
      expect(m.state).toBe(to);
    }
  });

  it('every way out of the analysis names a verdict of the contract', () => {
    const out = edges.filter((e) => /^(initial_silence|word|gap) /.test(e) && !/-> (word|gap)$/.test(e));
    const verdicts = out.map((e) => {
      const [from, event] = e.split(/ -|-> /) as [AmdState, AmdEvent];
      return `${from}/${event}: ${JSON.stringify(verdictOf(from, event))}`;
    });
    expect(verdicts.every((v) => !v.endsWith('null'))).toBe(true);
    expect(verdictOf('greeting', 'beep')).toBeNull(); // decided already
  });
});
