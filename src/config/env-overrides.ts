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
