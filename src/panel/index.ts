/**
 * The web panel's domain: who may log in (users, passwords), how (login throttling,
 * sessions) and what they may see (access). Its HTTP edge is src/http/panel; the writes
 * it shares with the CLI (accounts, credentials, owners, test calls) are src/accounts.
 */
export { canSeeAccount, isAdmin } from './access';
export { createLoginService, loginDelayMs, type LoginOptions, type LoginResult, type LoginService } from './login';
export {
  createPasswordChanges,
  type ChangePasswordResult,
  type PasswordChanges,
  type ResetAdminResult,
  type ResetPasswordResult,
  type SetPasswordResult,
} from './password-changes';
export { hashPassword, verifyPassword, passwordProblem, generatePassword, MIN_PASSWORD_LENGTH } from './passwords';
export { createPanelReads, type PanelReads } from './reads';
export { createSessionService, type ActiveSession, type SessionOptions, type SessionService } from './sessions';
export {
  createPanelUsersService,
  insertPanelUser,
  loginProblem,
  preparePanelUser,
  type CreateUserResult,
  type PanelUsersService,
  type PreparedUser,
  type PrepareUserResult,
} from './users';
