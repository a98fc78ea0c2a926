import type { CopiedTable } from '../store';

/**
 * `migrate-to-postgres --json`: what was copied, how long it took, and the secret.key every
 * appliance on the new database needs. Fields may be added, never renamed.
 */
export function migrateToPostgresJson(from: string, tables: CopiedTable[], rows: number, seconds: number, keyFile: string) {
  return { from, tables, rows, seconds, secret_key: keyFile };
}
