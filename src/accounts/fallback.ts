import type { Clock } from '../clock';
import { normalizePhoneNumber, type NumberForm } from '../phone';
import type { Fallback, Store } from '../store';

export type FallbackResult =
  | { ok: true; fallback: Fallback | null }
  | { ok: false; code: 'account_not_found' }
  | { ok: false; code: 'invalid_phone_number'; value: string }
  /** `--person`: people (a later round, issue 45) do not exist yet; the fallback takes a number until they do. */
  | { ok: false; code: 'people_not_available' };

/**
 * Who an account calls when nothing else resolves (docs/on-call.md "Nothing silently calls nobody":
 * `account set-fallback`, the panel's settings page): the rule lives here once.
 */
export interface FallbackService {
  get(accountId: string): Promise<FallbackResult>;
  /** Exactly one of `phone` and `person`; null for both clears it. */
  set(accountId: string, to: { phone?: string | null; person?: string | null }): Promise<FallbackResult>;
}

export function createFallbackService(d: { store: Store; clock: Clock; numberForms?: readonly NumberForm[] }): FallbackService {
  return {
    async get(accountId) {
      if (!(await d.store.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
      return { ok: true, fallback: await d.store.fallbacks.get(accountId) };
    },
    async set(accountId, to) {
      if (to.person) return { ok: false, code: 'people_not_available' };
      const raw = to.phone?.trim() || null;
      const number = raw === null ? null : normalizePhoneNumber(raw, d.numberForms);
      if (raw !== null && !number) return { ok: false, code: 'invalid_phone_number', value: raw };
      return d.store.transaction(async (tx): Promise<FallbackResult> => {
        if (!(await tx.accounts.get(accountId))) return { ok: false, code: 'account_not_found' };
        await tx.fallbacks.set(accountId, { phoneNumber: number, personId: null }, d.clock());
        return { ok: true, fallback: await tx.fallbacks.get(accountId) };
      });
    },
  };
}
