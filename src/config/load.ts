import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import { keyLines, lineOf } from './key-lines';
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
  const file = path ? readTomlFile(path) : null;
  const raw: Record<string, unknown> = file?.values ?? {};
  mergeInto(raw, readEnvOverrides(configSchema, env));
  for (const [key, value] of Object.entries(options.flags ?? {})) {
    if (value !== undefined) setPath(raw, key, value);
  }
  for (const warning of applyRenamedKeys(raw, env)) options.onDeprecated?.(warning);
  // Once per process, so without zod's fast path (ParseContext.jitless, "Skip eval-based fast
  // path"): generating and compiling it for each object of the schema cost a short CLI command
  // ~20 ms of its start, and pays only on schemas parsed again and again (docs/development.md
  // "The suite's length"). The result is the same.
  const result = configSchema.safeParse(raw, { jitless: true });
  if (!result.success) {
    // Where a key's value came from: a flag or a variable wins over the file (and has no line).
    const locate = (key: string) => {
      if (!file || !path || options.flags?.[key] !== undefined || env[envName(key)] !== undefined) return null;
      const line = lineOf(file.lines, key);
      return line === null ? null : { file: path, line };
    };
    throw new ConfigError(describeIssues(result.error, raw, locate));
  }
  return result.data;
}

function readTomlFile(path: string): { values: Record<string, unknown>; lines: Map<string, number> } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`invalid configuration: cannot read ${path}: ${(e as Error).message}`);
  }
  let values: Record<string, unknown>;
  try {
    values = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    // smol-toml's TomlError carries the line and column; its message's first line says what.
    const first = String((e as Error).message).split('\n')[0];
    const at = e instanceof TomlError ? `${path}:${e.line}:${e.column}` : path;
    throw new ConfigError(`invalid configuration: ${at}: not valid TOML: ${first}`);
  }
  return { values, lines: keyLines(text) };
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

/**
 * One line (contract: "one line naming the key, the value and why") holding every refused key,
 * separated by "; ", each with `file:line` when the file set it: a configuration with three
 * mistakes is fixed in one edit, not three starts (issue 49).
 */
function describeIssues(error: z.ZodError, raw: Record<string, unknown>, locate: (key: string) => { file: string; line: number } | null): string {
  const parts: { line: number; text: string }[] = [];
  const add = (key: string, what: string) => {
    const where = locate(key);
    parts.push({ line: where?.line ?? Infinity, text: where ? `${where.file}:${where.line}: ${what}` : what });
  };
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) add([...path, k].join('.'), `${[...path, k].join('.')}: unknown key`);
      continue;
    }
    const key = path.join('.');
    const value = path.reduce<unknown>((node, p) => (node as any)?.[p], raw);
    add(key, `${key} = ${JSON.stringify(value)}: ${issue.message}`);
  }
  // In the file's order (a stable sort): read top to bottom while editing; variables and flags last.
  return `invalid configuration: ${parts.sort((a, b) => a.line - b.line).map((p) => p.text).join('; ')}`;
}
