import type { MigrationStep } from './migration-step';

/**
 * An alert is found by its key (alerts.ts `findOpen`, `latestByKey`: every keyed request, a
 * resolve) newest first. The index on (account_id, alert_key, state) left SQLite's planner
 * to the account's index on created_at, walking every alert of the account newest first to
 * find the key: for a key never seen before (a new Alertmanager group), all of them. With
 * created_at after the key, the key's few rows come newest first from one index.
 */
export const alertsByKeyStep: MigrationStep = {
  version: 18,
  name: 'alerts found by key through one index, newest first',
  sql: `
      DROP INDEX alerts_key;
      CREATE INDEX alerts_key ON alerts(account_id, alert_key, created_at);
    `,
};
