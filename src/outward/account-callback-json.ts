/**
 * `account set-callback --json`: where the account's outcome events go and their signing
 * secret, shown only then. Fields may be added, never renamed.
 */
export function callbackSetJson(id: string, url: string, secret: string) {
  return { id, callback_url: url, callback_secret: secret };
}

/** `account clear-callback --json`: the account sends no outcome events. Fields may be added, never renamed. */
export function callbackClearedJson(id: string) {
  return { id, callback_url: null };
}
