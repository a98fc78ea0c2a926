import { Core } from 'sip.js';

/**
 * Patch 13 (transport/index.ts): digest credentials kept per realm (RFC 3261 §22.3).
 *
 * sip.js 0.21 answers one challenge per request: a second one, whatever its realm, is taken
 * for an "authentication loop". A trunk behind a proxy challenges twice, the registrar/PBX
 * with 401 (realm A) and the proxy with 407 (realm B); §22.3 wants the request retried with
 * BOTH Authorization (A) and Proxy-Authorization (B). So a challenge is refused only when
 * its own header+realm was answered already and it is not `stale=true` (§22.4 then wants
 * the new nonce, once). Everything else is sip.js's own guard, kept line for line.
 */
type Challenge = { realm?: string; stale?: boolean } | undefined;
interface Credentials {
  authenticate(request: unknown, challenge: Challenge, body?: unknown): boolean;
  toString(): string;
}
interface GuardedClient {
  core: { configuration: { authenticationFactory(): Credentials | undefined } };
  message: { cseq: number; method: string; setHeader(name: string, value: string): void };
  logger: { warn(m: string): void };
  init(): void;
  /** header|realm → how often answered, and whether a stale retry was used. */
  answeredRealms?: Map<string, { stale: boolean }>;
}

function authenticationGuard(
  this: GuardedClient,
  message: Core.IncomingResponseMessage,
  dialog?: { localSequenceNumber?: number; incrementLocalSequenceNumber(): void },
): boolean {
  const statusCode = message.statusCode;
  if (statusCode !== 401 && statusCode !== 407) return true;
  const challenge = message.parseHeader(statusCode === 401 ? 'www-authenticate' : 'proxy-authenticate') as Challenge;
  const headerName = statusCode === 401 ? 'authorization' : 'proxy-authorization';
  if (!challenge) {
    this.logger.warn(`${statusCode} with wrong or missing challenge, cannot authenticate`);
    return true;
  }
  const answered = (this.answeredRealms ??= new Map());
  const key = `${headerName}|${challenge.realm ?? ''}`;
  const before = answered.get(key);
  // Same realm challenged again: a wrong password, unless the nonce merely went stale (once).
  if (before && (before.stale || challenge.stale !== true)) {
    this.logger.warn(`${statusCode} for realm "${challenge.realm}" again: authentication loop, cannot authenticate`);
    return true;
  }
  // A fresh DigestAuthentication per realm: each keeps its own nonce and nonce count.
  const credentials = this.core.configuration.authenticationFactory();
  if (!credentials) {
    this.logger.warn('Unable to obtain credentials, cannot authenticate');
    return true;
  }
  if (!credentials.authenticate(this.message, challenge)) return true;
  answered.set(key, { stale: before ? true : false });
  let cseq = (this.message.cseq += 1);
  if (dialog && dialog.localSequenceNumber) {
    dialog.incrementLocalSequenceNumber();
    cseq = this.message.cseq = dialog.localSequenceNumber;
  }
  this.message.setHeader('cseq', `${cseq} ${this.message.method}`);
  // setHeader replaces only this header: an Authorization for the other realm stays (§22.3).
  this.message.setHeader(headerName, credentials.toString());
  this.init();
  return false;
}

(Core.UserAgentClient.prototype as unknown as { authenticationGuard: typeof authenticationGuard }).authenticationGuard = authenticationGuard;
