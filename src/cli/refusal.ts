import { errorBody, type ErrorCode } from '../errors';
import type { Store } from '../store';
import { CliError } from './context';

/**
 * What the command line says and how it exits, in one place (docs "CLI conventions"):
 * - exit 1, `voice-alert: <catalogue message>[: <what was given>]`: the command ran and was
 *   refused (an unknown account, a name not found, an invalid policy…). The wording is the error
 *   catalogue's (src/errors), the same the HTTP API answers.
 * - exit 2: the command line itself is wrong or the configuration cannot serve the command.
 *   Commander's refusals read `voice-alert: <what>; see voice-alert <command> --help`
 *   (src/cli/usage.ts); a value an option's parser refuses names the option
 *   (`voice-alert: --limit must be a whole number >= 0, got "-3"`).
 */
export function refusal(code: ErrorCode, detail?: string): CliError {
  return new CliError(errorBody(code, detail).message, 1);
}

/** A value an option's parser refuses is a usage error, like a missing argument: exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}

/**
 * Every command that takes ACCOUNT checks it first, so a mistyped id is an error and never
 * reads as "nothing configured" (an empty list of an account that does not exist).
 */
export async function requireAccount(store: Pick<Store, 'accounts'>, accountId: string): Promise<void> {
  if (!(await store.accounts.get(accountId))) throw refusal('account_not_found', accountId);
}

/**
 * `show ACCOUNT ID`, or the older `show ID` scripts may still use (then the account is null:
 * the id is looked up in every account, as before). Commander fills the first positional first.
 */
export function accountThenId(first: string, second: string | undefined): { accountId: string | null; id: string } {
  return second === undefined ? { accountId: null, id: first } : { accountId: first, id: second };
}

/** `list [ACCOUNT]` with the older `--account ID` still accepted; both, when they differ, is a usage error. */
export function accountOfList(positional: string | undefined, option: string | undefined): string | undefined {
  if (positional !== undefined && option !== undefined && positional !== option) {
    throw new UsageError(`ACCOUNT given twice: ${positional} and --account ${option}`);
  }
  return positional ?? option;
}
