import type { MigrationStep } from './migration-step';

/**
 * Contract "The way in: Opsgenie and PagerDuty" (docs/integrations.md "Moving from Opsgenie or
 * PagerDuty"): what each imported object came from, so a second `import --apply` updates it and
 * an object made here by hand (no row) is never touched. Released: never edit, add a step.
 */
export const importSourcesStep: MigrationStep = {
  version: 25,
  name: 'import sources: the source id each imported object came from',
  sql: `
      CREATE TABLE import_sources (
        account_id   TEXT NOT NULL REFERENCES accounts(id),
        source       TEXT NOT NULL,                  -- opsgenie | pagerduty
        source_kind  TEXT NOT NULL,                  -- person | schedule | policy | heartbeat | window
        source_id    TEXT NOT NULL,                  -- the source's id (a user, a schedule/rotation …)
        object_kind  TEXT NOT NULL,                  -- what it is here: person | schedule | policy | heartbeat | window
        object_id    TEXT NOT NULL,                  -- per_… sch_… pol_… hb_… mw_…
        imported_at  INTEGER NOT NULL,
        PRIMARY KEY (account_id, source, source_kind, source_id)
      ) STRICT;
      CREATE INDEX import_sources_object ON import_sources (object_id);
  `,
};
