import type { z } from 'zod';

type Leaf = 'string' | 'number' | 'boolean' | 'array' | 'other';

/** Every leaf key of the schema (`http.listen`, `tts.piper.model`, …) with its value kind. */
export function schemaLeaves(schema: z.ZodType, prefix: string[] = []): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const def = (schema as any)._zod.def;
  switch (def.type) {
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        for (const [p, t] of schemaLeaves(v, [...prefix, k])) out.set(p, t);
      }
      return out;
    case 'default':
    case 'prefault':
    case 'optional':
    case 'nullable':
      return schemaLeaves(def.innerType, prefix);
    case 'pipe':
      return schemaLeaves(def.in, prefix);
    case 'string':
    case 'enum':
      out.set(prefix.join('.'), 'string');
      return out;
    case 'number':
    case 'int':
      out.set(prefix.join('.'), 'number');
      return out;
    case 'boolean':
      out.set(prefix.join('.'), 'boolean');
      return out;
    case 'array':
    case 'tuple':
      out.set(prefix.join('.'), 'array');
      return out;
    default:
      out.set(prefix.join('.'), 'other');
      return out;
  }
}

/** `http.rate_limit_per_minute` -> `VOICE_ALERT_HTTP_RATE_LIMIT_PER_MINUTE`. */
export function envName(key: string): string {
  return 'VOICE_ALERT_' + key.replace(/\./g, '_').toUpperCase();
}

/**
 * VOICE_ALERT_* names that are not keys, by design: something other than the configuration
 * reads each, and a process that has one in its environment must still start. Every other
 * VOICE_ALERT_* name that is not a key is refused like an unknown key in the file (issue 27
 * §5: a typo such as VOICE_ALERT_HTTP_LISTN must not leave the appliance on its defaults).
 */
export const NOT_KEY_VARIABLES: ReadonlySet<string> = new Set([
  // The configuration file's path: load.ts reads it, `voice-alert doctor` names it.
  'VOICE_ALERT_CONFIG',
  // The tests' store and PostgreSQL cluster: vitest.config.ts and test/helpers/global-setup.ts
  // set them in the test process, and test/helpers/appliance.ts starts the binary with its
  // environment.
  'VOICE_ALERT_TEST_STORE',
  'VOICE_ALERT_TEST_PG',
  // The end-to-end tests' browser (test/helpers/browser.ts), set by a developer; the binary
  // those tests start inherits it the same way.
  'VOICE_ALERT_CHROMIUM',
  // scripts/bench/ingest-postgres's request quota; exported, it reaches the appliances the
  // script starts.
  'VOICE_ALERT_BENCH_QUOTA',
  // The sending side in docs/integrations.md "Integration recipes" (CI workflow): the appliance's
  // URL and a webhook key, set on hosts that send alerts, which may run an appliance too.
  'VOICE_ALERT_URL',
  'VOICE_ALERT_KEY',
]);

/**
 * The first VOICE_ALERT_* variable in `env` (by name) that is none of the schema's keys, of
 * `alsoKnown` (renamed keys' old names) or of NOT_KEY_VARIABLES; undefined when all are known.
 */
export function unknownEnvVariable(
  schema: z.ZodType,
  env: Record<string, string | undefined>,
  alsoKnown: readonly string[] = [],
): string | undefined {
  const known = new Set([...[...schemaLeaves(schema).keys()].map(envName), ...alsoKnown, ...NOT_KEY_VARIABLES]);
  return Object.keys(env)
    .filter((name) => name.startsWith('VOICE_ALERT_') && env[name] !== undefined && !known.has(name))
    .sort()[0];
}

/**
 * Reads overrides for known keys from the environment. Values are converted by the
 * key's kind; a value that does not convert is passed on as the raw string so the
 * schema rejects it with the key's name.
 */
export function readEnvOverrides(
  schema: z.ZodType,
  env: Record<string, string | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of schemaLeaves(schema)) {
    const raw = env[envName(key)];
    if (raw === undefined) continue;
    setPath(out, key, convert(raw, kind));
  }
  return out;
}

function convert(raw: string, kind: Leaf): unknown {
  const s = raw.trim();
  switch (kind) {
    case 'number':
      return s !== '' && Number.isFinite(Number(s)) ? Number(s) : raw;
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(s)) return true;
      if (/^(false|0|no|off)$/i.test(s)) return false;
      return raw;
    case 'array':
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return raw;
        }
      }
      return s === '' ? [] : s.split(',').map((x) => {
        const t = x.trim();
        return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
      });
    default:
      return raw;
  }
}

export function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let node = target;
  for (const p of parts.slice(0, -1)) {
    if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}
