import type { MigrationStep } from './migration-step';

/**
 * Issue 47 §3, "the panel shows the last import's plan and check" (docs/integrations.md
 * "Moving from Opsgenie or PagerDuty"): the last `import … --apply` plan and the last `--check`
 * result of each source, per account, as the CLI printed them with --json. Released: never
 * edit, add a step (migration-step.ts).
 */
export const importRunsStep: MigrationStep = {
  version: 28,
  name: 'import runs: the last applied plan and check of each source',
  sql: `
      CREATE TABLE import_runs (
        account_id  TEXT NOT NULL REFERENCES accounts(id),
        source      TEXT NOT NULL,                  -- opsgenie | pagerduty
        plan        TEXT,                           -- the last --apply's plan (import … --apply --json)
        applied_at  INTEGER,                        -- unix ms
        check_json  TEXT,                           -- the last --check's result (import … --check --json)
        checked_at  INTEGER,
        PRIMARY KEY (account_id, source)
      ) STRICT;
  `,
};
