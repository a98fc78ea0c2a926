import type { MigrationStep } from './migration-step';

/**
 * Contract "Proof of reach" (docs/on-call.md "Verification"): a call that asks a person to
 * prove a number answers. The person and the phone are the call's person_id/person_phone
 * (step 21); the result is kept on the person's phone (people.phones JSON `last_check`).
 * Released: never edit, add a step (migration-step.ts).
 */
export const verificationCallsStep: MigrationStep = {
  version: 23,
  name: 'verification calls',
  sql: `
      -- 1: a verification call (no alert, no credit, claimed before every alert call, never
      -- retried, never bundled); 0: every other call.
      ALTER TABLE calls ADD COLUMN verify INTEGER NOT NULL DEFAULT 0;
  `,
};
