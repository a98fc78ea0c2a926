import type { MigrationStep } from './migration-step';

/** Schema step 2: telephony: call events, answer and finish times. Released: never edit, add a step (migration-step.ts). */
export const telephonyStep: MigrationStep = {
  version: 2,
  name: 'telephony: call events, answer and finish times',
  sql: `
    -- Every edge a call takes (src/calls/transition.ts), with the SIP final code and reason
    -- that caused it, so an operator can tell "busy twice, then answered" from the record.
    CREATE TABLE call_events (
      id         INTEGER PRIMARY KEY,
      call_id    TEXT NOT NULL REFERENCES calls(id),
      at         INTEGER NOT NULL,                 -- unix ms
      attempt    INTEGER NOT NULL,
      from_state TEXT NOT NULL,
      to_state   TEXT NOT NULL,
      sip_code   INTEGER,
      reason     TEXT
    ) STRICT;
    CREATE INDEX call_events_call ON call_events(call_id, id);
    ALTER TABLE calls ADD COLUMN answered_at INTEGER;
    ALTER TABLE calls ADD COLUMN finished_at INTEGER;
    -- The claim skips numbers that have a call in progress (never two at once).
    CREATE INDEX calls_in_progress ON calls(phone_number, state);
  `,
};
