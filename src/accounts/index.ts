import type { PanelUsersService } from '../panel';
import type { AccountsService } from './accounts';
import type { CallbacksService } from './callbacks';
import type { CredentialsService } from './credentials';
import type { TestCallsService } from './test-calls';

export { createAccountsService, parseMonthlyCredit, parsePlan, type AccountChangeResult, type AccountsService, type NewAccountInput, type NewAccountResult } from './accounts';
export { createCredentialsService, type CredentialRef, type CredentialResult, type CredentialsService, type IssueResult, type RotateResult } from './credentials';
export { createCallbacksService, parseCallbackUrl, type CallbacksService, type ClearCallbackResult, type SetCallbackResult } from './callbacks';
export { createFallbackService, type FallbackResult, type FallbackService } from './fallback';
export { createTestCallsService, type TestCallInput, type TestCallRefusal, type TestCallResult, type TestCallsDeps, type TestCallsOptions, type TestCallsService } from './test-calls';

/**
 * Every write the panel and the CLI make on an account: the account itself, its API
 * credentials, its owners (the panel users who see only this account) and its test
 * calls. The rules live here once; the edges (http/panel routes, cli commands) read
 * their input, call one of these, and turn the result's `code` into their own words.
 * Results are values (`{ ok: true, … } | { ok: false, code }`); nothing here knows HTTP.
 * Built once, with the other services, in src/services.ts.
 */
export interface AccountServices {
  accounts: AccountsService;
  credentials: CredentialsService;
  /** Owners are panel users; their login and password rules are the panel's (src/panel/users.ts). */
  owners: Pick<PanelUsersService, 'createOwner'>;
  testCalls: TestCallsService;
  /** The account's outcome callback URL and its signing secret. */
  callbacks: CallbacksService;
}
