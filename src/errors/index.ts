/**
 * The error catalogue: one stable code, HTTP status and message per error. A leaf (it imports
 * nothing of ours), so intake, http and the panel can all name the same errors.
 */
export { ERRORS, errorBody, errorFor, type ApiError, type ErrorCode } from './catalogue';
