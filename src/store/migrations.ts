import type { Logger } from '../log';
import type { SqlConnection } from './sql/connection';
import { postgresDdl } from './sql/postgres/ddl';
import { LATEST_VERSION, MIGRATIONS } from './migration-steps';

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
}

/** Brings the schema up to date. Refuses a database newer than the code. */
export function migrate(db: SqlConnection, log?: Logger): void {
  if (db.dialect === 'postgres') migratePostgres(db, log);
  else migrateSqlite(db, log);
}

function refuseTooNew(current: number): void {
  if (current > LATEST_VERSION) {
    throw new DatabaseTooNewError(
      `database schema version ${current} is newer than this program understands (${LATEST_VERSION}); upgrade voice-alert`,
    );
  }
}

/** One IMMEDIATE transaction per step: another process waits instead of migrating beside us. */
function migrateSqlite(db: SqlConnection, log?: Logger): void {
  const current = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
  refuseTooNew(current);
  for (const step of MIGRATIONS) {
    if (step.version <= current) continue;
    inTransaction(db, 'BEGIN IMMEDIATE', () => {
      db.exec(step.sql);
      db.exec(`PRAGMA user_version = ${step.version}`);
    });
    log?.info({ version: step.version, step: step.name }, 'database migrated');
  }
}

/**
 * Every missing step in one transaction under an advisory lock: appliances that start
 * together on one database migrate it once, the others wait and find it done.
 */
function migratePostgres(db: SqlConnection, log?: Logger): void {
  inTransaction(db, 'BEGIN', () => {
    db.exec(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)');
    const row = db.query('SELECT max(version) AS v FROM schema_version').get() as { v: number | null };
    const current = row.v ?? 0;
    refuseTooNew(current);
    for (const step of MIGRATIONS) {
      if (step.version <= current) continue;
      db.exec(step.postgres ?? postgresDdl(step.sql));
      db.query('INSERT INTO schema_version (version) VALUES ($v)').run({ v: step.version });
      log?.info({ version: step.version, step: step.name }, 'database migrated');
    }
  });
}

/** Any number: it only has to be the same on every appliance ("VA" in ASCII). */
const MIGRATION_LOCK = 0x5641;

function inTransaction(db: SqlConnection, begin: string, work: () => void): void {
  db.exec(begin);
  try {
    work();
    db.exec('COMMIT');
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
