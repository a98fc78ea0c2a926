import type { SqlConnection } from './sql/connection';

/**
 * Which object here each imported object of a source became (schema step 26): the apply step
 * of `voice-alert import` finds its own objects by the source's id, never by name, so objects
 * made by hand are never touched (docs/integrations.md "Moving from Opsgenie or PagerDuty").
 */
export interface ImportedObject {
  sourceKind: string;
  sourceId: string;
  objectKind: string;
  objectId: string;
}

export interface ImportSourcesStore {
  /** The object a source's object became; null: not imported yet (or forgotten). */
  find(accountId: string, source: string, sourceKind: string, sourceId: string): Promise<ImportedObject | null>;
  /** Every object imported from `source` into the account. */
  list(accountId: string, source: string): Promise<ImportedObject[]>;
  /** Replaces what the source's object pointed at (an object deleted here and imported again). */
  remember(accountId: string, source: string, o: ImportedObject, now: number): Promise<void>;
}

interface Row {
  source_kind: string;
  source_id: string;
  object_kind: string;
  object_id: string;
}

const toObject = (r: Row): ImportedObject => ({ sourceKind: r.source_kind, sourceId: r.source_id, objectKind: r.object_kind, objectId: r.object_id });

export function createImportSourcesStore(db: SqlConnection): ImportSourcesStore {
  return {
    async find(accountId, source, sourceKind, sourceId) {
      const row = (await db
        .query('SELECT * FROM import_sources WHERE account_id = $a AND source = $s AND source_kind = $k AND source_id = $i')
        .get({ a: accountId, s: source, k: sourceKind, i: sourceId })) as Row | null;
      return row ? toObject(row) : null;
    },
    async list(accountId, source) {
      const rows = (await db.query('SELECT * FROM import_sources WHERE account_id = $a AND source = $s ORDER BY source_kind, source_id').all({ a: accountId, s: source })) as Row[];
      return rows.map(toObject);
    },
    async remember(accountId, source, o, now) {
      await db.query('DELETE FROM import_sources WHERE account_id = $a AND source = $s AND source_kind = $k AND source_id = $i').run({ a: accountId, s: source, k: o.sourceKind, i: o.sourceId });
      await db
        .query(
          `INSERT INTO import_sources (account_id, source, source_kind, source_id, object_kind, object_id, imported_at)
           VALUES ($a, $s, $k, $i, $ok, $oi, $now)`,
        )
        .run({ a: accountId, s: source, k: o.sourceKind, i: o.sourceId, ok: o.objectKind, oi: o.objectId, now });
    },
  };
}
