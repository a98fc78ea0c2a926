import type { TrunkProbeStatus, TrunkState } from './trunk-monitor';
import type { TrunkEntryStatus } from './trunk-set';

/** Telephony's status as /healthz, /metrics and the panel show it. */
export interface TrunkStatus extends TrunkProbeStatus {
  /** not_configured: sip.server is empty; starting: not up yet (or being retried after a failure). */
  state: 'not_configured' | 'starting' | 'up' | 'stopped';
  /** null for an IP trunk or when not up. */
  registered: boolean | null;
  /** Why the last start failed, while it is being retried; once up, why the last REGISTER failed. */
  lastError: string | null;
  /** Each trunk in order (docs/telephony.md "SIP trunks: several, in order"); absent from older callers. */
  trunks?: TrunkEntryStatus[];
}

/**
 * Telephony's one status from its trunks (docs/telephony.md "SIP trunks: several, in order"): `up`
 * once any trunk started; reachable when any trunk is up, unreachable when every one is down,
 * unknown otherwise. With one trunk it is that trunk's own status.
 */
export function aggregateStatus(trunks: TrunkEntryStatus[], stopping: boolean): TrunkStatus {
  const started = !stopping && trunks.some((t) => t.started);
  const state: TrunkStatus['state'] = stopping ? 'stopped' : started ? 'up' : 'starting';
  const registering = trunks.filter((t) => t.registered !== null);
  const registered = !started || registering.length === 0 ? null : registering.some((t) => t.registered);
  const errors = trunks.filter((t) => t.lastError !== null);
  const lastError = errors.length === 0 ? null : trunks.length === 1 ? errors[0]!.lastError : errors.map((t) => `${t.name}: ${t.lastError}`).join('; ');
  const probed = trunks.filter((t) => t.lastProbeAt !== null).sort((a, b) => b.lastProbeAt! - a.lastProbeAt!);
  const latest = probed[0];
  const reachable = trunks.length === 1 ? trunks[0]!.reachable : trunks.some((t) => t.state === 'up') ? true : trunks.every((t) => t.state === 'down') ? false : null;
  return {
    state,
    registered,
    lastError,
    reachable,
    lastProbeAt: latest?.lastProbeAt ?? null,
    lastProbeResult: latest?.lastProbeResult ?? null,
    lastProbeRttMs: latest?.lastProbeRttMs ?? null,
    changes: trunks.reduce((sum, t) => ({ down: sum.down + t.changes.down, up: sum.up + t.changes.up }), { down: 0, up: 0 }),
    trunks,
  };
}

/**
 * /healthz's `checks.trunk` and `checks.trunks` (docs/http-api.md "GET /healthz"): each trunk's
 * state by name, and `up` while telephony runs and any trunk is not down (`none`: unknown, tried in
 * its turn); `none` when no trunk is configured. A status without its trunks (an older
 * caller) is read as one trunk named `default`.
 */
export function checkTrunkStates(s: TrunkStatus | undefined): { trunk: 'up' | 'down' | 'none'; trunks: Record<string, TrunkState> } {
  if (!s || s.state === 'not_configured') return { trunk: 'none', trunks: {} };
  const list: { name: string; state: TrunkState }[] = s.trunks ?? [
    { name: 'default', state: s.state !== 'up' ? 'down' : s.reachable === false ? 'down' : s.reachable ? 'up' : 'none' },
  ];
  const trunks = Object.fromEntries(list.map((t) => [t.name, t.state]));
  const trunk = s.state === 'up' && list.some((t) => t.state !== 'down') ? 'up' : 'down';
  return { trunk, trunks };
}
