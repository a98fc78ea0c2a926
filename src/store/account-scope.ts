/**
 * Whose rows a lookup may return: one account's, or (null) every account's, for the
 * administrator (the CLI, the panel's admin). A row of another account is not found, exactly
 * like a row that does not exist, so ids cannot be probed across accounts (docs/https.md
 * "Security"). The one place the rule is written: every "…InAccount" lookup of the store uses it.
 */
export type AccountScope = string | null;

/** The WHERE part for `$account` (the CAST tells PostgreSQL the parameter's type, which IS NULL alone does not). */
export const IN_ACCOUNT = '(CAST($account AS TEXT) IS NULL OR account_id = $account)';
