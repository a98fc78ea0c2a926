import type { SelfTestRecord } from '../store';
import { iso } from './iso';

/**
 * A voice-path self-test's result (docs/telephony.md "Voice-path self-test"): `self-test list|run
 * --json` and the `selftest.*` callbacks. `ok`, `trunk` and `reason` first: what `run` promises.
 */
export function selfTestJson(t: SelfTestRecord) {
  return {
    ok: t.ok,
    trunk: t.trunk,
    reason: t.reason,
    id: t.id,
    number: t.number,
    expect: t.expect,
    echo_ratio: t.echoRatio === null ? null : Math.round(t.echoRatio * 1000) / 1000,
    origin: t.origin,
    started_at: iso(t.startedAt),
    finished_at: iso(t.finishedAt),
  };
}
