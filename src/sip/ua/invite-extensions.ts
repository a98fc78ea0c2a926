import { parseMinSe } from './session-timer';

/**
 * The SIP extensions our INVITE asks for, and the one retry a 421 or 422 earns.
 *
 *   Supported: 100rel, timer (ua/telephone.ts)   reliable 1xx (RFC 3262) are PRACKed by sip.js;
 *                                                session timers (RFC 4028) in ua/session-timer.ts
 *   Session-Expires: sip.session_expires_s       what we ask for; the PBX may lower it to Min-SE
 *   Min-SE: sip.min_se_s
 *
 *   421 Extension Required, Require: 100rel      again with `Require: 100rel` (RFC 3261 §21.4.15):
 *                                                every tag it requires is one we support
 *   422 Session Interval Too Small, Min-SE: N    again with Session-Expires and Min-SE of N
 *                                                (RFC 4028 §7.4, §8.1)
 *
 * Each kind of retry happens at most once per attempt, so a PBX that keeps answering 421 or
 * 422 ends the attempt with it (reported as SIP_FINAL, and src/calls decides the rest).
 */
export interface InviteExtensions {
  /** Option tags put in `Require` (only after a 421 asked for them). */
  require: string[];
  sessionExpiresS: number;
  minSeS: number;
  /** Which retries this attempt already used. */
  retried: { extension: boolean; interval: boolean };
}

/** Option tags we can honour when a PBX requires them. */
export const SUPPORTED_EXTENSIONS = ['100rel', 'timer'] as const;

export function firstInvite(sessionExpiresS: number, minSeS: number): InviteExtensions {
  return { require: [], sessionExpiresS: Math.max(sessionExpiresS, minSeS), minSeS, retried: { extension: false, interval: false } };
}

/** The headers our INVITE carries besides sip.js's own. */
export function inviteHeaders(x: InviteExtensions): string[] {
  const headers = [`Session-Expires: ${x.sessionExpiresS}`, `Min-SE: ${x.minSeS}`];
  if (x.require.length > 0) headers.push(`Require: ${x.require.join(', ')}`);
  return headers;
}

/** sip.js's Allow lists neither UPDATE (we answer it: ua/update-server.ts) nor PRACK. */
export function withOurAllow(allow: string): string {
  const methods = allow.split(',').map((m) => m.trim());
  for (const m of ['PRACK', 'UPDATE']) if (!methods.includes(m)) methods.push(m);
  return methods.join(',');
}

/**
 * What to send next after a final non-2xx to our INVITE, or null when the answer stands.
 * `header` reads the response's header (sip.js IncomingResponseMessage.getHeader).
 */
export function retryAfter(status: number, header: (name: string) => string | undefined, x: InviteExtensions): InviteExtensions | null {
  if (status === 421 && !x.retried.extension) {
    const required = (header('require') ?? '')
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    if (required.length === 0 || !required.every((t) => (SUPPORTED_EXTENSIONS as readonly string[]).includes(t))) return null;
    return { ...x, require: [...new Set([...x.require, ...required])], retried: { ...x.retried, extension: true } };
  }
  if (status === 422 && !x.retried.interval) {
    const minSe = parseMinSe(header('min-se'));
    if (minSe === null || minSe <= 0) return null;
    const wanted = Math.max(minSe, x.minSeS);
    return { ...x, sessionExpiresS: Math.max(x.sessionExpiresS, wanted), minSeS: wanted, retried: { ...x.retried, interval: true } };
  }
  return null;
}
