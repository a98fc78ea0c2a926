import type { MigrationStep } from './migration-step';

/**
 * Contract "Voicemail detection": who answered an attempt, a person or a mailbox, and why the
 * analysis thought so. Released: never edit, add a step (migration-step.ts).
 */
export const answeredByStep: MigrationStep = {
  version: 22,
  name: 'answered by a person or a machine',
  sql: `
      -- human | machine | unknown; NULL before an answer. The latest answered attempt's.
      ALTER TABLE calls ADD COLUMN answered_by TEXT;
      -- short_greeting | long_greeting | beep | initial_silence | max_words | timeout | keypress
      ALTER TABLE calls ADD COLUMN amd_reason TEXT;
      -- The same on the event that recorded the answer (NULL on every other).
      ALTER TABLE call_events ADD COLUMN answered_by TEXT;
      ALTER TABLE call_events ADD COLUMN amd_reason TEXT;
  `,
};
