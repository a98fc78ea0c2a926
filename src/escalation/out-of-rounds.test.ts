import { describe, expect, it } from 'vitest';
import { outOfRoundsReason } from './out-of-rounds';

// The reason of an escalation that ran out of rounds (out-of-rounds.ts): the contract's words when
// every step was called every round; otherwise each step's calls counted and why steps were passed over.
const plan = { rounds: 2, steps: [{ numbers: ['5321111111'], wait_s: 60 }, { numbers: [], schedules: ['backup'], wait_s: 60 }, { numbers: ['5322222222'], wait_s: 60 }] };

describe('outOfRoundsReason', () => {
  it('every step called every round: the words callers and tests read, unchanged (several calls of one step count once)', () => {
    expect(outOfRoundsReason(plan, [1, 2, 2, 3, 4, 5, 6], [])).toBe('every step called 2 time(s), nobody pressed 1');
  });

  it('a step passed over in one round only: counted, and why when the last pass skipped it', () => {
    // Step 2 reached nobody in round 2 (ordinal 5 missing), the look that ended the rounds passed it over.
    expect(outOfRoundsReason(plan, [1, 2, 3, 4, 6], ['step 2: schedule backup has nobody on call'])).toBe(
      'step 1 called 2 time(s), step 2 called 1 time(s), step 3 called 2 time(s), nobody pressed 1; step 2: schedule backup has nobody on call',
    );
    // Passed over in round 1 only: the counts say it, with no why left to tell.
    expect(outOfRoundsReason(plan, [1, 3, 4, 5, 6], [])).toBe('step 1 called 2 time(s), step 2 called 1 time(s), step 3 called 2 time(s), nobody pressed 1');
  });

  it('the fallback (ordinal 0) and ordinals outside the plan are not counted as steps called', () => {
    expect(outOfRoundsReason({ rounds: 1, steps: plan.steps.slice(0, 2) }, [0, 1, 3, 4], ['step 2: schedule backup has nobody on call'])).toBe(
      'step 1 called 1 time(s), step 2 called 0 time(s), nobody pressed 1; step 2: schedule backup has nobody on call',
    );
  });
});
