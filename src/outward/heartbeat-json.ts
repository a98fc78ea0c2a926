import type { Heartbeat } from '../store';
import { iso } from './iso';

/** What `state` says: the stored state, or `paused` over it (docs/on-call.md "Heartbeats"). */
export function heartbeatState(h: Heartbeat): 'new' | 'up' | 'late' | 'paused' {
  return h.paused ? 'paused' : h.state;
}

/**
 * The JSON of a heartbeat, for the CLI (--json) and GET /api/heartbeats. Never the ping token:
 * only its digest is stored, and the URL is shown once, at create.
 */
export function heartbeatJson(h: Heartbeat) {
  return {
    id: h.id,
    account_id: h.accountId,
    name: h.name,
    state: heartbeatState(h),
    interval_s: h.intervalS,
    grace_s: h.graceS,
    policy_id: h.policyId,
    to: h.numbers,
    message: h.message,
    last_ping_at: iso(h.lastPingAt),
    deadline_at: h.state === 'new' ? null : iso(h.deadlineAt),
    alert_id: h.alertId,
    created_at: iso(h.createdAt),
  };
}

/** `heartbeat create --json`: the heartbeat and its ping URL, shown only then. Fields may be added, never renamed. */
export function newHeartbeatJson(h: Heartbeat, pingUrl: string, pingFullUrl?: string) {
  return { ...heartbeatJson(h), ping_url: pingUrl, ...(pingFullUrl ? { ping_full_url: pingFullUrl } : {}) };
}

/** `heartbeat pause|resume|delete --json`: the heartbeat, whether it changed, and `deleted` after delete. */
export function heartbeatChangeJson(h: Heartbeat, changed: boolean, deleted: boolean) {
  return { ...heartbeatJson(h), changed, ...(deleted ? { deleted: true } : {}) };
}
