import type { SqlConnection } from './sql/connection';

/**
 * Who an account calls when nothing else resolves (docs/on-call.md "Nothing silently calls nobody":
 * `account set-fallback`). A number now; `personId` is kept for people, who are not there yet
 * (a later round, issue 45): a fallback names one or the other.
 */
export interface Fallback {
  accountId: string;
  /** Stored (normalised) number. */
  phoneNumber: string | null;
  personId: string | null;
  updatedAt: number;
}

interface FallbackRow {
  account_id: string;
  phone_number: string | null;
  person_id: string | null;
  updated_at: number;
}

export interface FallbacksStore {
  get(accountId: string): Promise<Fallback | null>;
  /** Sets (or, with both null, clears) the account's fallback. */
  set(accountId: string, to: { phoneNumber: string | null; personId: string | null }, now: number): Promise<void>;
}

export function createFallbacksStore(db: SqlConnection): FallbacksStore {
  return {
    async get(accountId) {
      const r = (await db.query('SELECT * FROM account_fallbacks WHERE account_id = $account').get({ account: accountId })) as FallbackRow | null;
      if (!r || (r.phone_number === null && r.person_id === null)) return null;
      return { accountId: r.account_id, phoneNumber: r.phone_number, personId: r.person_id, updatedAt: Number(r.updated_at) };
    },
    async set(accountId, to, now) {
      if (to.phoneNumber === null && to.personId === null) {
        await db.query('DELETE FROM account_fallbacks WHERE account_id = $account').run({ account: accountId });
        return;
      }
      await db
        .query(
          `INSERT INTO account_fallbacks (account_id, phone_number, person_id, updated_at) VALUES ($account, $number, $person, $now)
           ON CONFLICT (account_id) DO UPDATE SET phone_number = $number, person_id = $person, updated_at = $now`,
        )
        .run({ account: accountId, number: to.phoneNumber, person: to.personId, now });
    },
  };
}
