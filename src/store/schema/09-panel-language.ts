import type { MigrationStep } from './migration-step';

/** Schema step 9: panel: each user's language. Released: never edit, add a step (migration-step.ts). */
export const panelLanguageStep: MigrationStep = {
  version: 9,
  name: 'panel: each user\'s language',
  sql: `
    -- The panel's language as this person last chose it (tr, en); NULL: panel.language.
    ALTER TABLE panel_users ADD COLUMN language TEXT;
  `,
};
