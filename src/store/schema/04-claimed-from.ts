import type { MigrationStep } from './migration-step';

/** Schema step 4: call queue: the state a claim took the call from. Released: never edit, add a step (migration-step.ts). */
export const claimedFromStep: MigrationStep = {
  version: 4,
  name: 'call queue: the state a claim took the call from',
  sql: `
    -- The claim is one UPDATE … RETURNING; RETURNING shows the new row only, so the state
    -- before the claim (queued, or in progress under a lease that ran out) is kept here.
    ALTER TABLE calls ADD COLUMN claimed_from TEXT;
  `,
};
