import type { Person } from '../store';
import { iso } from './iso';

/**
 * A person as the CLI (--json) and the API show them (docs/on-call.md "People"): phones in the
 * order they are called, each with its verification (null: not verified). Fields may be added,
 * never renamed.
 */
export function personJson(p: Person) {
  return {
    id: p.id,
    account_id: p.accountId,
    name: p.name,
    phones: p.phones.map((ph) => ({
      number: ph.number,
      verified_at: iso(ph.verifiedAt),
      /** The latest verification call (docs/on-call.md "Verification"); null: never checked. */
      last_check: ph.lastCheck ? { at: iso(ph.lastCheck.at), ok: ph.lastCheck.ok, reason: ph.lastCheck.reason } : null,
    })),
    sms: p.sms,
    emails: p.emails,
    language: p.language,
    time_zone: p.timeZone,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

/** `person delete --json`: the person as they were. */
export function personDeletedJson(p: Person) {
  return { ...personJson(p), deleted: true };
}
