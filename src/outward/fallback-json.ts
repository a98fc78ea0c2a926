import type { Fallback } from '../store';

/**
 * An account's fallback (docs/on-call.md "Nothing silently calls nobody"): `account set-fallback|show
 * --json` and `account list --json`'s `fallback`; null when none is set. `person` is the
 * person's id when the fallback is a person (docs/on-call.md "People"), `phone_number` then null. Fields may be added, never renamed.
 */
export function fallbackJson(f: Fallback | null) {
  return f ? { phone_number: f.phoneNumber, person: f.personId } : null;
}
