import type { Clock } from '../clock';
import type { NumberForm } from '../phone';
import { createPanelUsersService, type PanelUsersService } from '../panel';
import type { Store } from '../store';
import { createAccountsService, type AccountsService } from './accounts';
import { createCallbacksService, type CallbacksService } from './callbacks';
import { createCredentialsService, type CredentialsService } from './credentials';
import { createTestCallsService, type TestCallsOptions, type TestCallsService } from './test-calls';

export { parseMonthlyCredit, parsePlan, type AccountChangeResult, type AccountsService, type NewAccountInput, type NewAccountResult } from './accounts';
export { type CredentialRef, type CredentialResult, type CredentialsService, type IssueResult, type RotateResult } from './credentials';
export { parseCallbackUrl, type CallbacksService, type ClearCallbackResult, type SetCallbackResult } from './callbacks';
export { createFallbackService, type FallbackResult, type FallbackService } from './fallback';
export { type TestCallInput, type TestCallRefusal, type TestCallResult, type TestCallsOptions, type TestCallsService } from './test-calls';

/**
 * Every write the panel and the CLI make on an account: the account itself, its API
 * credentials, its owners (the panel users who see only this account) and its test
 * calls. The rules live here once; the edges (http/panel routes, cli commands) read
 * their input, call one of these, and turn the result's `code` into their own words.
 * Results are values (`{ ok: true, … } | { ok: false, code }`); nothing here knows HTTP.
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

export interface AccountServicesDeps {
  store: Store;
  clock: Clock;
  /** Intake's hook: wakes the dialer when a test call is queued. */
  onQueued?: (callIds: string[]) => void;
  /** The panel's test calls; without it (the CLI) every test call is refused. */
  testCalls?: TestCallsOptions;
  /** numbers.accept: the forms a test call may dial (absent: tr-mobile), as the API accepts. */
  numberForms?: readonly NumberForm[];
}

export function createAccountServices(deps: AccountServicesDeps): AccountServices {
  return {
    accounts: createAccountsService(deps.store),
    credentials: createCredentialsService(deps.store),
    owners: createPanelUsersService(deps.store, deps.clock),
    testCalls: createTestCallsService(deps),
    callbacks: createCallbacksService(deps.store),
  };
}
