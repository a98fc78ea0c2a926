/**
 * One step of the append-only schema history (migration-steps.ts lists them, one list for
 * both stores). Never edit a released step: add a new one. `sql` is SQLite's; PostgreSQL
 * runs `postgres` when a step gives it, else `sql` translated mechanically
 * (sql/postgres/ddl.ts). SQLite keeps the number of the last step applied in
 * `PRAGMA user_version`, PostgreSQL in `schema_version`.
 */
export interface MigrationStep {
  version: number;
  name: string;
  sql: string;
  postgres?: string;
}
