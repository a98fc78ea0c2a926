import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import type { z } from 'zod';
import { envName, readEnvOverrides, setPath, unknownEnvVariable } from './env-overrides';
import { applyRenamedKeys, RENAMED_KEYS } from './renamed-keys';
import { configSchema, type Config } from './schema';

export const DEFAULT_CONFIG_PATH = '/etc/voice-alert/config.toml';

/** A configuration that cannot be used; `message` is the one line shown to the operator. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface LoadConfigOptions {
  /** `--config PATH`; else `$VOICE_ALERT_CONFIG`; else `defaultPath` when it exists. */
  path?: string;
  /** DEFAULT_CONFIG_PATH unless given; null: none (tests must not read the machine's /etc). */
  defaultPath?: string | null;
  env?: Record<string, string | undefined>;
  /** Command-line flags, as dotted keys (`{'http.listen': '127.0.0.1:0'}`); they win over all. */
  flags?: Record<string, unknown>;
  /** Told once per renamed key still in use (src/config/renamed-keys.ts). */
  onDeprecated?: (message: string) => void;
}

/** Loads file -> environment -> flags, validated by one schema. Throws ConfigError. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  // A variable that names no key is refused like an unknown key in the file: a typo must not
  // leave the appliance on its defaults. Checked first, so a misspelled VOICE_ALERT_CONFIG too.
  const unknown = unknownEnvVariable(configSchema, env, RENAMED_KEYS.map((r) => envName(r.old)));
  if (unknown) throw new ConfigError(unknownKeyMessage(unknown));
  const fallback = options.defaultPath === undefined ? DEFAULT_CONFIG_PATH : options.defaultPath;
  const path = options.path ?? env.VOICE_ALERT_CONFIG ?? (fallback && existsSync(fallback) ? fallback : undefined);
  const raw: Record<string, unknown> = path ? readTomlFile(path) : {};
  mergeInto(raw, readEnvOverrides(configSchema, env));
  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value !== undefined) setPath(raw, key, value);
  }
  for (const warning of applyRenamedKeys(raw, env)) options.onDeprecated?.(warning);
  const result = configSchema.safeParse(raw);
  if (!result.success) throw new ConfigError(describeIssue(result.error, raw));
  return result.data;
}

function readTomlFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`invalid configuration: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const first = String((e as Error).message).split('\n')[0];
    throw new ConfigError(`invalid configuration: ${path} is not valid TOML: ${first}`);
  }
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(source)) {
    const t = target[k];
    if (v && typeof v === 'object' && !Array.isArray(v) && t && typeof t === 'object' && !Array.isArray(t)) {
      mergeInto(t as Record<string, unknown>, v as Record<string, unknown>);
    } else {
      target[k] = v;
    }
  }
}

/** The one line for a key that does not exist: dotted in the file, a variable's name in the environment. */
function unknownKeyMessage(key: string): string {
  return `invalid configuration: ${key}: unknown key`;
}

/** One line: the key, the value given, and why it is refused. */
function describeIssue(error: z.ZodError, raw: Record<string, unknown>): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    return unknownKeyMessage([...path, issue.keys[0]].join('.'));
  }
  const value = path.reduce<unknown>((node, p) => (node as any)?.[p], raw);
  return `invalid configuration: ${path.join('.')} = ${JSON.stringify(value)}: ${issue.message}`;
}
