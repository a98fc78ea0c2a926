import { envName, setPath } from './env-overrides';

/**
 * Keys that moved. The old name still works (file, environment or flag) so an upgrade never
 * breaks a running appliance, but each use is reported so the operator can rename it.
 * The new name wins when both are set.
 */
export const RENAMED_KEYS: readonly { old: string; now: string }[] = [
  // The queue lease belongs to calls, not to the SIP trunk (issue 9).
  { old: 'sip.call_lease_s', now: 'calls.lease_s' },
];

const getPath = (node: unknown, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((n, p) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[p] : undefined), node);

function deletePath(target: Record<string, unknown>, dotted: string): void {
  const parts = dotted.split('.');
  const parent = getPath(target, parts.slice(0, -1).join('.'));
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[parts.at(-1)!];
}

/**
 * Moves every old key in `raw` (already merged from file and flags) to its new name, and
 * reads an old environment variable as the new key. Returns one warning per old name used.
 */
export function applyRenamedKeys(raw: Record<string, unknown>, env: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  for (const { old, now } of RENAMED_KEYS) {
    const fromFile = getPath(raw, old);
    const fromEnv = env[envName(old)];
    if (fromFile === undefined && fromEnv === undefined) continue;
    deletePath(raw, old);
    const given = fromFile !== undefined ? fromFile : Number.isFinite(Number(fromEnv)) ? Number(fromEnv) : fromEnv;
    if (getPath(raw, now) === undefined && env[envName(now)] === undefined) setPath(raw, now, given);
    warnings.push(`configuration key ${old} is deprecated: use ${now} (${envName(now)})`);
  }
  return warnings;
}
