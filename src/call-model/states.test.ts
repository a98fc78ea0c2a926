import { describe, expect, it } from 'vitest';
import { ALERT_STATES, alertTransition, CALL_STATES, FINAL_STATES, IllegalTransitionError, transition } from '.';

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

describe('alert states', () => {
  it('an open alert closes one way; an unacknowledged one may still be acknowledged or resolved; the others never move again', () => {
    for (const to of ['acknowledged', 'resolved', 'unacknowledged'] as const) expect(alertTransition('open', to)).toEqual({ from: 'open', to });
    for (const to of ['acknowledged', 'resolved'] as const) expect(alertTransition('unacknowledged', to)).toEqual({ from: 'unacknowledged', to });
    for (const to of ['open', 'unacknowledged'] as const) expect(() => alertTransition('unacknowledged', to)).toThrow(`illegal alert transition unacknowledged -> ${to}`);
    for (const from of ['acknowledged', 'resolved'] as const) {
      for (const to of ALERT_STATES) expect(() => alertTransition(from, to)).toThrow(`illegal alert transition ${from} -> ${to}`);
    }
  });

  it('a call not yet answered may be cancelled; an answered one never is', () => {
    for (const from of ['queued', 'dialing', 'ringing'] as const) expect(transition(from, 'cancelled')).toEqual({ from, to: 'cancelled' });
    expect(() => transition('answered', 'cancelled')).toThrow(IllegalTransitionError);
  });
});
