export { canSeeAccount, isAdmin } from './access';
export { createLoginService, loginDelayMs, type LoginOptions, type LoginResult, type LoginService } from './login';
export { hashPassword, verifyPassword, passwordProblem, generatePassword, MIN_PASSWORD_LENGTH } from './passwords';
export { createSessionService, type ActiveSession, type SessionOptions, type SessionService } from './sessions';
export { createPanelUsersService, type CreateUserResult, type PanelUsersService } from './users';
export { createAccountWithOwner, parseMonthlyCredit, type NewAccountInput, type NewAccountResult } from './account-admin';
export { placeTestCall, type TestCallResult } from './test-call';
