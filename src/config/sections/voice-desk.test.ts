import { describe, expect, it } from 'vitest';
import { readmeBlock, readmeSection } from '../../../test/helpers/readme';
import { configSchema } from '../schema';

// README "Voice desk" shows the section with its values; all but `enabled` are the defaults a
// configuration without the section gets (three tries, more than 10 wrong PINs a minute lock
// the desk for 5 minutes …). Read from the README itself, so the two cannot drift apart.
describe('[voice_desk] defaults', () => {
  it("are the README's example values, except that the desk is off until enabled", () => {
    const toml = readmeBlock(readmeSection('### Voice desk'));
    const shown = (Bun.TOML.parse(toml) as { voice_desk: Record<string, unknown> }).voice_desk;
    expect(shown).toMatchObject({ enabled: true, pin_tries: 3, lockout_threshold: 10, lockout_window_s: 60, lockout_s: 300 });
    expect(configSchema.parse({}).voice_desk).toEqual({ ...shown, enabled: false });
  });
});
