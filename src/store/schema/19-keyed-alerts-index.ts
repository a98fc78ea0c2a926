import type { MigrationStep } from './migration-step';

/**
 * alerts_key holds keyed alerts only. A plain request's alert (no key) is never looked up
 * by its key (docs/http-api.md "Alerts: dedupe and resolve": never deduplicated), yet it went into
 * the index all the same: one B-tree more in every plain request's insert and, at the end of it,
 * ~4 more pages written to the WAL at each group commit (an index appended to at its right
 * end rewrites its last leaves whenever one overflows; BENCHMARKS.md "Pages a group commit
 * writes; …"). Every lookup by key says `alert_key = $key`, which implies the index's WHERE, so
 * both SQLite's planner and PostgreSQL's still use it (alerts-by-key.test.ts).
 */
export const keyedAlertsIndexStep: MigrationStep = {
  version: 19,
  name: 'alerts_key holds keyed alerts only',
  sql: `
      DROP INDEX alerts_key;
      CREATE INDEX alerts_key ON alerts(account_id, alert_key, created_at) WHERE alert_key IS NOT NULL;
    `,
};
