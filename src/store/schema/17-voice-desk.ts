import type { MigrationStep } from './migration-step';

/** docs/telephony.md "Voice desk": each account's desk PIN (hashed) and the policy whose first step `0` connects to. */
export const voiceDeskStep: MigrationStep = {
  version: 17,
  name: 'voice desk: PINs and desk policies',
  sql: `
      -- One row per account that set up the desk (src/voice-desk). The PIN is shown once by
      -- \`desk pin\` and kept only as a salted password hash; the policy (NULL: the default
      -- policy of the account's oldest active API key) names who keypad 0 connects to.
      CREATE TABLE voice_desk (
        account_id  TEXT PRIMARY KEY REFERENCES accounts(id),
        pin_hash    TEXT,
        policy_id   TEXT,
        updated_at  INTEGER NOT NULL
      ) STRICT;
  `,
};
