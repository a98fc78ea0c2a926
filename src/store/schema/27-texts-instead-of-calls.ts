import type { MigrationStep } from './migration-step';

/**
 * Contract "A second path: SMS and e-mail": when no trunk is up, a person's call that cannot
 * be placed is replaced by a text (docs/second-path.md "When no trunk is up"). Such a notice
 * is owed per escalation step (`<alert_id>/<person_id>/step<ordinal>`), texts only, beside the
 * one owed at the person's first call (`kind` 'reached', texts and e-mails). The index answers
 * "was this person owed a notice for this alert since that step called them"
 * (store/text-notices.ts oweInstead). Released: never edit, add a step (migration-step.ts).
 */
export const textsInsteadOfCallsStep: MigrationStep = {
  version: 27,
  name: 'second path: a text instead of a call no trunk can place',
  sql: `
    ALTER TABLE text_notices ADD COLUMN kind TEXT NOT NULL DEFAULT 'reached';
    CREATE INDEX text_notices_alert_person ON text_notices(alert_id, person_id, created_at);
  `,
};
