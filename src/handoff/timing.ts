import { HANDOFF_CONFIRM_WITHIN_MS } from '../schedules';

/** How the hand-off is paced (docs/on-call.md "Hand-off calls"); tests pass shorter ones to a manual clock. */
export interface HandoffTiming {
  /** The contract's 10 minutes: no 1 by then (or after two tries), the alert is raised. */
  confirmWithinMs: number;
  /** The second try, this long after the first ended unconfirmed (within confirmWithinMs). */
  retryAfterMs: number;
  /** Once the alert is raised: the incoming person is called again this long after their last try ended… */
  laterEveryMs: number;
  /** …this many times at most (and never after their shift ended): a 1 on one resolves the alert. */
  laterTries: number;
  /** How often the loop looks (and looks again at a hand-off whose call is still under way). */
  pollMs: number;
}

export const HANDOFF_TIMING: HandoffTiming = { confirmWithinMs: HANDOFF_CONFIRM_WITHIN_MS, retryAfterMs: 120_000, laterEveryMs: 600_000, laterTries: 6, pollMs: 5_000 };
