import type { Clock } from '../clock';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import { claimUse, type Fallback, type Store } from '../store';

export type FallbackResult =
  | { ok: true; fallback: Fallback | null }
  | { ok: false; code: 'account_not_found' }
  | { ok: false; code: 'invalid_phone_number'; value: string }
  /** `--person` names nobody of the account (another account's person is not found either). */
  | { ok: false; code: 'person_not_found'; value: string };

/**
 * Who an account calls when nothing else resolves (docs/on-call.md "Nothing silently calls nobody":
 * `account set-fallback`, the panel's settings page): the rule lives here once. A person is
 * kept by id and reached like any person, their phones in order (docs/on-call.md "People").
 */
export interface FallbackService {
  get(accountId: string): Promise<FallbackResult>;
  /** Exactly one of `phone` and `person` (a name in any case, or an id); null for both clears it. */
  set(accountId: string, to: { phone?: string | null; person?: string | null }): Promise<FallbackResult>;
}

export function createFallbackService(d: { store: Store; clock: Clock; numberForms?: readonly NumberForm[] }): FallbackService {
  return {
    async get(accountId) {
      if (!(await d.store.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
      return { ok: true, fallback: await d.store.fallbacks.get(accountId) };
    },
    async set(accountId, to) {
      const raw = to.phone?.trim() || null;
      const person = to.person?.trim() || null;
      const number = raw === null ? null : normalizePhoneNumber(raw, d.numberForms);
      if (raw !== null && !number) return { ok: false, code: 'invalid_phone_number', value: raw };
      return d.store.transaction(async (tx): Promise<FallbackResult> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        let personId: string | null = null;
        if (person !== null) {
          // Before reading the person: a delete of them meanwhile waits for this (src/store/usage-of.ts).
          await claimUse(tx, accountId, 'person');
          const p = await tx.people.find(accountId, person);
          if (!p) return { ok: false, code: 'person_not_found', value: person };
          personId = p.id;
        }
        await tx.fallbacks.set(accountId, { phoneNumber: personId ? null : number, personId }, d.clock());
        return { ok: true, fallback: await tx.fallbacks.get(accountId) };
      });
    },
  };
}
