import { requestUrl } from './request-path';

/**
 * One year, this host only: `includeSubDomains` would bind every other host under the
 * appliance's name to HTTPS, which is not the appliance's to decide.
 */
export const HSTS_VALUE = 'max-age=31536000';

/**
 * Strict-Transport-Security goes on answers sent over TLS only: RFC 6797 §7.2 forbids it on
 * plain HTTP (http.plain_listen), where an attacker could strip or forge it anyway.
 */
export function wantsHsts(request: Request, enabled: boolean): boolean {
  return enabled && requestUrl(request)?.protocol === 'https:';
}
