import type { SecretBox } from './secret-box';
import type { SqlConnection } from './sql/connection';

/** This appliance's secret.key cannot open what the database holds. */
export class SecretKeyMismatchError extends Error {
  override readonly name = 'SecretKeyMismatchError';
}

/**
 * Refuses a key that cannot decrypt the sealed secrets already in the database. On one
 * SQLite file this catches a key file swapped or lost beside it; on a PostgreSQL store
 * shared by several appliances it catches a node started with its own new key, which
 * would otherwise fail every signed request and callback it handled (docs/high-availability.md
 * "High availability"). One sealed value of each kind is tried: a key opens all or none.
 */
export async function assertKeyOpensDatabase(db: SqlConnection, box: SecretBox, keyFile: string): Promise<void> {
  const sealed = [
    await db.query('SELECT secret_enc AS v FROM credentials ORDER BY created_at LIMIT 1').get(),
    await db.query('SELECT callback_secret_enc AS v FROM accounts WHERE callback_secret_enc IS NOT NULL LIMIT 1').get(),
  ] as ({ v: Uint8Array } | null)[];
  for (const row of sealed) {
    if (!row) continue;
    try {
      box.open(row.v);
    } catch {
      throw new SecretKeyMismatchError(
        `the secret key in ${keyFile} cannot decrypt the secrets this database holds: every appliance on one database needs the same secret.key (copy it from the first appliance, mode 0600)`,
      );
    }
  }
}
