/**
 * The tables whose rows the intake's lookup cache keeps (credentials, accounts, maintenance
 * windows: intake/lookup-cache.ts). A committed write to one of them moves the store's change
 * marker at once (sqlite/database.ts, postgres/database.ts), so the appliance it was made on
 * honours it from its next request (docs/cli.md "Accounts and keys"); other writes, i.e. nearly
 * every write under load, leave the cache alone.
 */
const LOOKED_UP = /^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(credentials|accounts|maintenance_windows)\b/i;

/** Whether a statement's text writes a table the lookup cache keeps. */
export function writesLookedUp(text: string): boolean {
  return LOOKED_UP.test(text);
}
