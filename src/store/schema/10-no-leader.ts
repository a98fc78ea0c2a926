import type { MigrationStep } from './migration-step';

/** Schema step 10: no leader: outbox leases, shared replay memory. Released: never edit, add a step (migration-step.ts). */
export const noLeaderStep: MigrationStep = {
  version: 10,
  name: 'no leader: outbox leases, shared replay memory',
  sql: `
    -- An outbox event being sent is leased to one appliance's sender (src/callbacks/sender.ts)
    -- until lease_until: another appliance sends it once the lease ran out (the sender hung
    -- or died), and a sender whose lease was taken over cannot record over the other's.
    ALTER TABLE callback_outbox ADD COLUMN lease_until INTEGER;
    ALTER TABLE callback_outbox ADD COLUMN lease_owner TEXT;

    -- Signatures already accepted, shared by every appliance on the database: a signed
    -- request replayed to another appliance is refused as on one. Kept until the
    -- timestamp alone would refuse it (expires_at, unix ms), then pruned.
    CREATE TABLE signed_requests (
      credential_id TEXT NOT NULL,
      signature     TEXT NOT NULL,
      expires_at    INTEGER NOT NULL,
      PRIMARY KEY (credential_id, signature)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX signed_requests_expiry ON signed_requests(expires_at);
  `,
};
