import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWav } from '../../src/tts/wav';
import { applianceDir } from '../helpers/appliance';

// The compiled binary (dist/voice-alert) with real espeak-ng and sox, as an installer runs it.
describe('voice-alert say', () => {
  it('writes an 8 kHz WAV of the whole call, Turkish by default', () => {
    const a = applianceDir();
    const out = join(a.dir, 'alert.wav');
    // After "--", a text that looks like options is the text (commander's rule, as for any CLI).
    const r = a.cli(['say', '--out', out, '--json', '--', '-v en --help: web-01 %95 dolu 🔥']);
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ out, sample_rate: 8000, language: 'tr', fallbacks: 0 });
    const wav = readWav(new Uint8Array(readFileSync(out)));
    expect(wav.sampleRate).toBe(8000);
    expect(Math.round((wav.samples.length * 1000) / 8000)).toBe(info.duration_ms);
    // intro + 2 × message + 2 pauses of 1 s + prompt: well over 6 s, under a minute.
    expect(info.duration_ms).toBeGreaterThan(6000);
    expect(info.duration_ms).toBeLessThan(60_000);
    expect(a.cli(['say', 'ikinci', '--out', out]).stdout).toMatch(/^wrote .*alert\.wav: [\d.]+ s at 8000 Hz \(tr\)\n$/);
  });

  it('--voice en switches the voice and the prompts', () => {
    const a = applianceDir();
    const r = a.cli(['say', 'Disk full on db-01', '--voice', 'en', '--out', join(a.dir, 'en.wav'), '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).language).toBe('en');
  });

  it('names the Debian package when espeak-ng is missing (exit 2)', () => {
    const a = applianceDir({ tts: { espeak_binary: '/nonexistent/espeak-ng' } });
    const r = a.cli(['say', 'test', '--out', join(a.dir, 'x.wav')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/apt-get install espeak-ng/);
  });

  it('refuses a text with nothing to speak instead of writing silence', () => {
    const a = applianceDir();
    const r = a.cli(['say', '🔥🔥 !!!', '--out', join(a.dir, 'x.wav')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/nothing to speak/);
  });

  it('rejects an unknown tts key by name', () => {
    const a = applianceDir({ tts: { speed: 100 } });
    const r = a.cli(['say', 'test', '--out', join(a.dir, 'x.wav')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/tts\.speed: unknown key/);
  });
});
