import type { IntakeResult } from '../intake';
import { describeError, type Logger } from '../log';
import type { HttpDeps } from './deps';
import { createRefusalLog, type RefusalLog } from './refusal-log';
import { requestIdFor } from './respond';

/** Records one alert request's answer: the API history row, and a refusal log line when refused. */
export type RecordRequest = (
  status: number,
  message: string,
  who?: Pick<IntakeResult, 'accountId' | 'credentialId'>,
  refusal?: { code: string; reason?: string },
) => void;

/**
 * What every alert endpoint (the webhook, the API, the PagerDuty and Opsgenie ones) records
 * of a request (docs/operations.md "API history", "Logs": refusals logged).
 */
export function requestRecorder(deps: HttpDeps, request: Request, endpoint: string, ip: string): RecordRequest {
  return (status, message, who, refusal) => {
    const entry = {
      at: deps.clock(),
      requestId: requestIdFor(request),
      endpoint,
      sourceIp: ip,
      status,
      message,
      accountId: who?.accountId ?? null,
      credentialId: who?.credentialId ?? null,
    };
    if (refusal) {
      refusalLogFor(deps).add({
        requestId: entry.requestId,
        endpoint,
        address: ip,
        status,
        code: refusal.code,
        accountId: entry.accountId,
        reason: refusal.reason,
      });
    }
    // History is for people; it must never delay or fail an alert. Nobody waits for its write.
    deps.store.recordHistory(entry, (e) => deps.log.error({ error: describeError(e), requestId: entry.requestId }, 'api history not recorded'));
  };
}

const refusalLogs = new WeakMap<Logger, RefusalLog>();

/** One refusal log per logger: its once-a-minute memory is shared by every alert endpoint. */
function refusalLogFor(deps: HttpDeps): RefusalLog {
  let r = refusalLogs.get(deps.log);
  if (!r) refusalLogs.set(deps.log, (r = createRefusalLog(deps.log, deps.clock)));
  return r;
}
