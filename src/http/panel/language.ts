import { readCookie } from './cookies';
import type { Language } from './i18n';

/** The panel's language as the person chose it (the switch in the top bar); panel.language until then. */
export const LANGUAGE_COOKIE = 'va_lang';

const LANGUAGES: readonly Language[] = ['tr', 'en'];

export const isLanguage = (v: string | undefined): v is Language => LANGUAGES.includes(v as Language);

/**
 * The language a page speaks: the logged-in person's own choice (kept on their user, so it
 * follows them to another browser), else this browser's last choice (the cookie, which the
 * login page can read before anyone is known), else panel.language.
 */
export function languageOf(request: Request, fallback: Language, user?: { language: string | null } | null): Language {
  if (isLanguage(user?.language ?? undefined)) return user!.language as Language;
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : fallback;
}

/**
 * A year, Path=/panel. A preference, not a credential: SameSite=Lax is enough. Set when
 * someone switches and when they log in, so a shared browser's login page speaks the
 * language of whoever used it last.
 */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/panel; HttpOnly; SameSite=Lax; Max-Age=31536000${secure ? '; Secure' : ''}`;
}
