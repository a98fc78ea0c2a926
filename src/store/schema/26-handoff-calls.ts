import type { MigrationStep } from './migration-step';

/**
 * Contract "Proof of reach" (docs/on-call.md "Hand-off calls"): a schedule may call whoever
 * comes on call at each hand-off and ask them to press 1. A hand-off call is a verification-
 * shaped call (`verify = 1`: asks for 1, no alert, no credit, claimed before alert calls,
 * tried once, never bundled) that names its hand-off in `handoff_id`. Released: never edit,
 * add a step (migration-step.ts).
 */
export const handoffCallsStep: MigrationStep = {
  version: 26,
  name: 'hand-off calls',
  sql: `
      -- 1: the schedule calls whoever comes on call at each hand-off (--handoff-call).
      ALTER TABLE schedules ADD COLUMN handoff_call INTEGER NOT NULL DEFAULT 0;
      -- The hand-off a call asks to confirm (with verify = 1); NULL: any other call.
      ALTER TABLE calls ADD COLUMN handoff_id TEXT;

      -- One row per hand-off of a schedule with handoff_call, written by the on-call watch in
      -- the transaction that saw the change (src/schedules/watch.ts), then worked through by
      -- the hand-off loop (src/handoff/loop.ts) under a lease (store/lease.ts).
      CREATE TABLE handoffs (
        id              TEXT PRIMARY KEY,            -- hof_…
        account_id      TEXT NOT NULL,
        schedule_id     TEXT NOT NULL,
        schedule_name   TEXT NOT NULL,               -- as at the hand-off: the alert key's name
        time_zone       TEXT NOT NULL,
        at              INTEGER NOT NULL,            -- the hand-off instant, unix ms
        until_at        INTEGER,                     -- when the incoming shift ends; NULL: not within a year
        incoming_name   TEXT,
        incoming_number TEXT NOT NULL,
        incoming_person TEXT,                        -- per_… or NULL (a bare number participant)
        outgoing_name   TEXT,
        outgoing_number TEXT,                        -- NULL: nobody was on call before
        outgoing_person TEXT,
        state           TEXT NOT NULL CHECK (state IN ('calling','raised','confirmed','ended')),
        tries           INTEGER NOT NULL DEFAULT 0,  -- hand-off calls placed so far
        call_id         TEXT,                        -- the latest of them
        next_at         INTEGER NOT NULL,            -- when the loop looks at it again
        alert_id        TEXT,                        -- handoff:<schedule name>, once raised
        confirmed_at    INTEGER,
        ended_reason    TEXT,
        created_at      INTEGER NOT NULL,
        lease_until     INTEGER,
        lease_owner     TEXT,
        UNIQUE (schedule_id, at)
      ) STRICT;
      CREATE INDEX handoffs_due ON handoffs(state, next_at);
  `,
};
