import { readCookie } from './cookies';
import type { Language } from './i18n';

/** The panel's language as the person chose it (the switch in the top bar); panel.language until then. */
export const LANGUAGE_COOKIE = 'va_lang';

const LANGUAGES: readonly Language[] = ['tr', 'en'];

export const isLanguage = (v: string | undefined): v is Language => LANGUAGES.includes(v as Language);

export function languageOf(request: Request, fallback: Language): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : fallback;
}

/**
 * A year, Path=/panel. A preference, not a credential: SameSite=Lax is enough, and a
 * cookie (not a column) keeps it per browser without a migration — "per user" as far as
 * one person uses one browser.
 */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/panel; HttpOnly; SameSite=Lax; Max-Age=31536000${secure ? '; Secure' : ''}`;
}
