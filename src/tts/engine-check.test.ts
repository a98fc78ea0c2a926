import { describe, expect, it } from 'vitest';
import { checkSpeechEngine } from './engine-check';
import { ttsConfig } from '../../test/helpers/tts-support';

describe('checkSpeechEngine', () => {
  it('passes with the Debian packages installed and the default Turkish voice', () => {
    expect(checkSpeechEngine(ttsConfig())).toEqual({ warnings: [] });
  });

  it('names the apt package when espeak-ng or sox is missing', () => {
    expect(() => checkSpeechEngine(ttsConfig({ espeak_binary: '/nonexistent/espeak-ng' }))).toThrow(/apt-get install espeak-ng/);
    expect(() => checkSpeechEngine(ttsConfig({ sox_binary: '/nonexistent/sox' }))).toThrow(/apt-get install sox/);
  });

  it('refuses a voice espeak-ng does not have', () => {
    expect(() => checkSpeechEngine(ttsConfig({ voice: 'xx' }))).toThrow(/no voice "xx"/);
  });

  it('only warns about piper: espeak-ng will speak', () => {
    const { warnings } = checkSpeechEngine(ttsConfig({ engine: 'piper', piper: { binary: '/nonexistent/piper' } }));
    expect(warnings).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/cannot run "\/nonexistent\/piper"/);
    expect(warnings.join('\n')).toMatch(/tts.piper.model is not set/);
  });
});
