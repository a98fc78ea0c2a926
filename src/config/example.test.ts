import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '.';
import { schemaLeaves } from './env-overrides';

const examplePath = join(import.meta.dirname, '..', '..', 'assets', 'config.example.toml');

function leafKeys(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? leafKeys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('assets/config.example.toml', () => {
  it('names every configuration key, so operators can find each one', () => {
    const inExample = leafKeys(parse(readFileSync(examplePath, 'utf8')) as Record<string, unknown>).sort();
    expect(inExample).toEqual([...schemaLeaves(configSchema).keys()].sort());
  });

  it('shows the defaults', () => {
    expect(loadConfig({ path: examplePath, env: {} })).toEqual(loadConfig({ env: {}, defaultPath: null }));
  });
});
