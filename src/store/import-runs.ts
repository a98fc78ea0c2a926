import type { SqlConnection } from './sql/connection';

/**
 * The last applied import plan and the last check of each source, per account (schema step 28):
 * what the panel's Import page shows (docs/panel.md "Import"). Written by `voice-alert import`
 * after an `--apply` committed and after a `--check` ran; the JSON is what `--json` printed,
 * kept as text (the store does not know the importers' shapes: src/importers/plan.ts).
 */
export interface ImportRun {
  source: string;
  /** The plan as applied, JSON; null: never applied (only checked). */
  plan: string | null;
  appliedAt: number | null;
  /** The check's result, JSON; null: never checked. */
  check: string | null;
  checkedAt: number | null;
}

export interface ImportRunsStore {
  /** Remembers the plan just applied (replacing the source's last one); its check stays. */
  recordApplied(accountId: string, source: string, plan: string, now: number): Promise<void>;
  /** Remembers a check's result (replacing the source's last one); the plan stays. */
  recordCheck(accountId: string, source: string, check: string, now: number): Promise<void>;
  /** The account's sources, the one used last first. */
  ofAccount(accountId: string): Promise<ImportRun[]>;
}

interface Row {
  source: string;
  plan: string | null;
  applied_at: number | null;
  check_json: string | null;
  checked_at: number | null;
}

export function createImportRunsStore(db: SqlConnection): ImportRunsStore {
  const applied = db.query(
    `INSERT INTO import_runs (account_id, source, plan, applied_at) VALUES ($a, $s, $v, $now)
     ON CONFLICT (account_id, source) DO UPDATE SET plan = excluded.plan, applied_at = excluded.applied_at`,
  );
  const checked = db.query(
    `INSERT INTO import_runs (account_id, source, check_json, checked_at) VALUES ($a, $s, $v, $now)
     ON CONFLICT (account_id, source) DO UPDATE SET check_json = excluded.check_json, checked_at = excluded.checked_at`,
  );
  const ofAccount = db.query('SELECT source, plan, applied_at, check_json, checked_at FROM import_runs WHERE account_id = $a');
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    async recordApplied(accountId, source, plan, now) {
      await applied.run({ a: accountId, s: source, v: plan, now });
    },
    async recordCheck(accountId, source, check, now) {
      await checked.run({ a: accountId, s: source, v: check, now });
    },
    async ofAccount(accountId) {
      const rows = (await ofAccount.all({ a: accountId })) as Row[];
      return rows
        .map((r) => ({ source: r.source, plan: r.plan, appliedAt: num(r.applied_at), check: r.check_json, checkedAt: num(r.checked_at) }))
        .sort((x, y) => Math.max(y.appliedAt ?? 0, y.checkedAt ?? 0) - Math.max(x.appliedAt ?? 0, x.checkedAt ?? 0));
    },
  };
}
