export const SESSION_COOKIE = 'va_session';

/** The value of one cookie from a Cookie header, or undefined. */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly: scripts cannot read it. SameSite=Strict: no other site's page can make the
 * browser send it. Path=/panel: the alert endpoints never see it.
 */
export function sessionCookie(token: string, maxAgeS: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/panel; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/** Whether the browser reached us over TLS: directly, or via a trusted proxy that says so. */
export function isTls(request: Request, trustProxy: boolean): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  return trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function wantsSecureCookie(mode: 'auto' | 'always' | 'never', request: Request, trustProxy: boolean): boolean {
  return mode === 'always' || (mode === 'auto' && isTls(request, trustProxy));
}
