import { describeError } from '../log';

/**
 * Confirms an SNS subscription by GETting its SubscribeURL once (docs "Confirm your
 * subscription"), only over https and only to a host the configuration allows, so a forged
 * confirmation cannot make the appliance fetch arbitrary addresses. Never blocks the answer:
 * the GET runs detached and its outcome is logged.
 */
export interface SnsConfirmerOptions {
  /** integrations.sns_auto_confirm */
  autoConfirm: boolean;
  /** integrations.sns_confirm_hosts: glob patterns (`*` = any run of characters within a label). */
  allowedHosts: readonly string[];
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
  /** Injected so tests can trust a throwaway CA; production passes globalThis.fetch. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  timeoutMs?: number;
}

export type ConfirmDecision = 'confirming' | 'not_https' | 'host_not_allowed' | 'auto_confirm_off' | 'no_url';

export interface SnsConfirmer {
  /** Decides at once and returns the decision; when `confirming`, `done` settles after the GET. */
  confirm(subscribeUrl: string, topicArn: string): { decision: ConfirmDecision; done: Promise<void> };
}

export function createSnsConfirmer(options: SnsConfirmerOptions): SnsConfirmer {
  const doFetch = options.fetch ?? ((url, init) => fetch(url, init));
  const patterns = options.allowedHosts.map(globToRegExp);
  return {
    confirm(subscribeUrl, topicArn) {
      const decision = decide(subscribeUrl, options.autoConfirm, patterns);
      if (decision !== 'confirming') {
        // An operator can open the URL by hand: it is logged and lands in the request history.
        options.log.warn({ subscribeUrl, topicArn, reason: decision }, 'sns subscription not confirmed automatically');
        return { decision, done: Promise.resolve() };
      }
      const done = doFetch(subscribeUrl, { method: 'GET', redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) })
        .then(async (res) => {
          await res.body?.cancel();
          if (res.ok) options.log.info({ topicArn, status: res.status }, 'sns subscription confirmed');
          else options.log.warn({ topicArn, subscribeUrl, status: res.status }, 'sns subscription confirmation refused');
        })
        .catch((e: unknown) => options.log.warn({ topicArn, subscribeUrl, error: describeError(e) }, 'sns subscription confirmation failed'));
      return { decision, done };
    },
  };
}

function decide(raw: string, autoConfirm: boolean, patterns: RegExp[]): ConfirmDecision {
  if (!raw) return 'no_url';
  if (!autoConfirm) return 'auto_confirm_off';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'no_url';
  }
  if (url.protocol !== 'https:') return 'not_https';
  const host = url.hostname.toLowerCase();
  return patterns.some((p) => p.test(host)) ? 'confirming' : 'host_not_allowed';
}

/** `sns.*.amazonaws.com` → /^sns\.[^.]+\.amazonaws\.com$/: a `*` never spans a dot. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .trim()
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^.]+');
  return new RegExp(`^${body}$`);
}
