import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../schema';

// README "Voice desk" shows the section with its values; all but `enabled` are the defaults a
// configuration without the section gets (three tries, more than 10 wrong PINs a minute lock
// the desk for 5 minutes …). Read from the README itself, so the two cannot drift apart.
const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

describe('[voice_desk] defaults', () => {
  it("are the README's example values, except that the desk is off until enabled", () => {
    const section = README.slice(README.indexOf('### Voice desk'));
    const toml = /```toml\n([\s\S]*?)```/.exec(section)![1]!;
    const shown = (Bun.TOML.parse(toml) as { voice_desk: Record<string, unknown> }).voice_desk;
    expect(shown).toMatchObject({ enabled: true, pin_tries: 3, lockout_threshold: 10, lockout_window_s: 60, lockout_s: 300 });
    expect(configSchema.parse({}).voice_desk).toEqual({ ...shown, enabled: false });
  });
});
