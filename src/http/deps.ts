import type { TrunkStatus } from '../calls';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { IntakeDeps } from '../intake';
import type { Logger } from '../log';
import type { CoverageReading } from '../schedules';
import type { SecondPathStatus } from '../second-path';
import type { Services } from '../services';
import type { Store } from '../store';
import type { RateLimiter } from './rate-limit';

/** What the HTTP features need; built once in main.ts. */
export interface HttpDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  config: Config;
  intake: IntakeDeps;
  /** The domain services, built once (src/services.ts): routes take theirs from here, never build one. */
  services: Services;
  /** One budget per source address, shared by both alert endpoints (docs/http-api.md "HTTP API"). */
  rateLimiter: RateLimiter;
  /** The SIP trunk's live state, when telephony runs in this process. */
  trunkStatus?: () => TrunkStatus;
  /** RTP packets sent and late pacer ticks (telephony's mediaCounts) for /metrics. */
  mediaCounts?: () => { packetsSent: number; lateTicks: number };
  /** Each trunk's newest voice-path self-test result, for voice_alert_self_test_ok. */
  selfTestResults?: () => { trunk: string; ok: boolean }[];
  /** Each schedule's coverage as the engine's loop last computed it, for /metrics (src/schedules/coverage-gauges.ts). */
  coverage?: () => readonly CoverageReading[];
  /** The second path's modems and relay (docs/second-path.md "Operations"), for /healthz checks.sms and /metrics. */
  smsStatus?: () => SecondPathStatus;
  /** Free bytes on the file system holding `dir`; statfs unless a test simulates a full disk. */
  freeDiskBytes?: (dir: string) => number;
}
