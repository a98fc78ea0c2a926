import * as z from 'zod';
import { NUMBER_FORMS, type NumberForm } from '../../phone';

/**
 * `[[sip.trunks]]` (docs/telephony.md "SIP trunks: several, in order"): trunks in order of
 * preference. Each table holds the `[sip]` keys that describe one trunk; a key a table leaves out
 * is taken from `[sip]` (so shared values such as `username` are written once). The other
 * `[sip]` keys (ports, timers, probing) stay shared by every trunk.
 */
export const TRUNK_KEYS = [
  'name',
  'server',
  'transport',
  'tls_ca_file',
  'tls_verify',
  'srtp',
  'domain',
  'username',
  'password',
  'auth_username',
  'register',
  'register_expires_s',
  'outbound_proxy',
  'dial_prefix',
  'from_user',
  'from_display',
  'pai',
  'privacy',
  // How long a silent trunk holds a call before the next one is tried: per trunk, as its link is.
  'invite_timeout_s',
] as const;

/** Names appear in metrics labels, logs, callbacks and URLs: short and plain. */
export const trunkName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/, 'expected 1–32 letters, digits, ".", "_" or "-", e.g. carrier-a');

/**
 * The number forms (numbers.accept) a trunk may dial; absent: all. An empty list would be a
 * trunk nothing goes to: refused.
 */
export const trunkNumbers = z.array(z.enum(NUMBER_FORMS)).min(1, 'at least one number form, or leave numbers out (all)');

/** What a trunk needs, whichever table it came from: the `[sip]` shape with its name and numbers. */
export interface TrunkSettings {
  name: string;
  /** null: every form numbers.accept takes. */
  numbers: NumberForm[] | null;
}

/** Duplicate names in order of first repetition (config errors name them). */
export function duplicateNames(names: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup];
}

/** One trunk as the appliance runs it: `[sip]` with the table's keys laid over it. */
export type ResolvedTrunk<S> = S & TrunkSettings;

/**
 * The trunks in order. `[[sip.trunks]]` when present (each table over `[sip]`); else `[sip]`
 * itself when its `server` is set (one trunk, `sip.name`, "default" unless named); else none.
 * Trunk i binds `sip.local_port + i` (one SIP socket each), or a port the OS picks when
 * `local_port` is 0.
 */
export function resolveTrunks<S extends { name: string; server: string; local_port: number; trunks: ({ name: string; numbers?: NumberForm[] } & Partial<S>)[] }>(
  sip: S,
): ResolvedTrunk<Omit<S, 'trunks'>>[] {
  const { trunks, ...base } = sip;
  if (trunks.length === 0) return base.server ? [{ ...base, numbers: null }] : [];
  return trunks.map((t, i) => {
    const { numbers, ...keys } = t;
    const defined = Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined));
    return { ...base, ...defined, local_port: base.local_port === 0 ? 0 : base.local_port + i, numbers: numbers ?? null } as ResolvedTrunk<Omit<S, 'trunks'>>;
  });
}

/**
 * With `[[sip.trunks]]`, each form `numbers.accept` takes must be dialable by some trunk,
 * else its calls could never go out: one message per such form.
 */
export function undialableForms(sip: { trunks: { numbers?: NumberForm[] }[] }, accept: readonly NumberForm[]): string[] {
  if (sip.trunks.length === 0) return [];
  return accept
    .filter((form) => !sip.trunks.some((t) => !t.numbers || t.numbers.includes(form)))
    .map((form) => `numbers.accept takes ${form} numbers but no [[sip.trunks]] may dial them: add "${form}" to a trunk's numbers (or leave numbers out)`);
}
