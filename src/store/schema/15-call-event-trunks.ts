import type { MigrationStep } from './migration-step';

/** docs/telephony.md "SIP trunks: several, in order": every call event names the trunk the attempt used. */
export const callEventTrunksStep: MigrationStep = {
  version: 15,
  name: 'call events name their trunk',
  sql: `
      -- The trunk ([[sip.trunks]] name) the attempt went out on; NULL before a trunk was chosen
      -- (queued, the claim) and for events written before this step.
      ALTER TABLE call_events ADD COLUMN trunk TEXT;
    `,
};
