import { toAlert, type AlertRecord, type AlertRow } from './alerts';
import type { SqlConnection } from './sql/connection';

/** An account's desk as stored (docs/telephony.md "Voice desk"): never the PIN itself. */
export interface DeskSetup {
  accountId: string;
  /** A salted password hash of the PIN (src/voice-desk/pin.ts); null: no PIN set yet. */
  pinHash: string | null;
  /** The policy whose first step keypad 0 connects to; null: the oldest API key's default policy. */
  policyId: string | null;
  updatedAt: number;
}

interface DeskRow {
  account_id: string;
  pin_hash: string | null;
  policy_id: string | null;
  updated_at: number;
}

const toSetup = (r: DeskRow): DeskSetup => ({ accountId: r.account_id, pinHash: r.pin_hash, policyId: r.policy_id, updatedAt: r.updated_at });

/** The voice desk's PINs and policies, and the alerts a desk call reads out. */
export interface VoiceDeskStore {
  get(accountId: string): Promise<DeskSetup | null>;
  setPin(accountId: string, pinHash: string, now: number): Promise<void>;
  setPolicy(accountId: string, policyId: string | null, now: number): Promise<void>;
  /** Every PIN of an account that is not disabled (a caller is known by the PIN alone). */
  pins(): Promise<{ accountId: string; pinHash: string }[]>;
  /** The account's alerts nobody acknowledged or resolved (`open`, `unacknowledged`), newest first. */
  pendingAlerts(accountId: string, limit: number): Promise<AlertRecord[]>;
}

export function createVoiceDeskStore(db: SqlConnection): VoiceDeskStore {
  const upsert = (column: 'pin_hash' | 'policy_id') =>
    db.query(
      `INSERT INTO voice_desk (account_id, ${column}, updated_at) VALUES ($account, $value, $now)
       ON CONFLICT (account_id) DO UPDATE SET ${column} = $value, updated_at = $now`,
    );
  return {
    async get(accountId) {
      const row = (await db.query('SELECT * FROM voice_desk WHERE account_id = $account').get({ account: accountId })) as DeskRow | null;
      return row ? toSetup(row) : null;
    },
    async setPin(accountId, pinHash, now) {
      await upsert('pin_hash').run({ account: accountId, value: pinHash, now });
    },
    async setPolicy(accountId, policyId, now) {
      await upsert('policy_id').run({ account: accountId, value: policyId, now });
    },
    async pins() {
      const rows = (await db
        .query(
          `SELECT d.account_id, d.pin_hash FROM voice_desk d JOIN accounts a ON a.id = d.account_id
           WHERE d.pin_hash IS NOT NULL AND a.disabled = 0 ORDER BY d.account_id`,
        )
        .all({})) as { account_id: string; pin_hash: string }[];
      return rows.map((r) => ({ accountId: r.account_id, pinHash: r.pin_hash }));
    },
    async pendingAlerts(accountId, limit) {
      const rows = (await db
        .query(
          `SELECT * FROM alerts WHERE account_id = $account AND state IN ('open', 'unacknowledged')
           ORDER BY created_at DESC, id DESC LIMIT $limit`,
        )
        .all({ account: accountId, limit })) as AlertRow[];
      return rows.map(toAlert);
    },
  };
}
