import { describe, expect, it } from 'vitest';
import { CALL_STATES, FINAL_STATES, IllegalTransitionError, transition } from '.';

describe('guarded transitions', () => {
  it('refuses edges out of final states and skipping the answer', () => {
    for (const from of FINAL_STATES) {
      for (const to of CALL_STATES) expect(() => transition(from, to)).toThrow(IllegalTransitionError);
    }
    expect(() => transition('ringing', 'completed')).toThrow('illegal call transition ringing -> completed');
    expect(() => transition('queued', 'answered')).toThrow(IllegalTransitionError);
    expect(transition('ringing', 'answered')).toEqual({ from: 'ringing', to: 'answered' });
    expect(transition('answered', 'dialing')).toEqual({ from: 'answered', to: 'dialing' }); // a crashed attempt claimed again
  });
});
