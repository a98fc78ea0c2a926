import { describe, expect, it } from 'vitest';
import { docBlock, docSection } from '../../../test/helpers/docs';
import { configSchema } from '../schema';

// docs/telephony.md "Voice desk" shows the section with its values; all but `enabled` are the
// defaults a configuration without the section gets (three tries, more than 10 wrong PINs a minute
// lock the desk for 5 minutes …). Read from docs/telephony.md itself, so the two cannot drift
// apart.
describe('[voice_desk] defaults', () => {
  it("are the docs' example values, except that the desk is off until enabled", () => {
    const toml = docBlock(docSection('docs/telephony.md', '## Voice desk'));
    const shown = (Bun.TOML.parse(toml) as { voice_desk: Record<string, unknown> }).voice_desk;
    expect(shown).toMatchObject({ enabled: true, pin_tries: 3, lockout_threshold: 10, lockout_window_s: 60, lockout_s: 300 });
    expect(configSchema.parse({}).voice_desk).toEqual({ ...shown, enabled: false });
  });
});
