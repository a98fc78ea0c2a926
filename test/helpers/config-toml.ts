import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

/** The configuration a TOML text gives, loaded from a file as the appliance loads it (no environment). */
export function loadToml(toml: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'va-config-')), 'config.toml');
  writeFileSync(path, toml);
  return loadConfig({ path, env: {} });
}

/** The ConfigError message a TOML text gives; fails the test when it loads. */
export function configErrorOf(toml: string): string {
  try {
    loadToml(toml);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}
