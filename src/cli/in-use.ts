import { errorFor } from '../errors';
import { describeUsers, type UsedBy } from '../store';
import { CliError } from './context';

/**
 * A delete refused because something uses what it deletes (docs/on-call.md "Nothing silently calls
 * nobody"): the catalogue's message, then the users, exit 1.
 * `Policy in use: used by heartbeat nightly (hb_…), key ak_… (cred_…); remove those uses first`
 */
export function inUseError(r: { code: 'schedule_in_use' | 'policy_in_use' | 'person_in_use'; usedBy: readonly UsedBy[] }): CliError {
  return new CliError(`${errorFor(r.code).message}: used by ${describeUsers(r.usedBy)}; remove those uses first`);
}
