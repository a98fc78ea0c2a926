import { describe, expect, it } from 'vitest';
import { createEspeakRenderer } from './espeak-ng';
import { resampleToTelephone, TELEPHONE_RATE } from './resample';
import { peak, rmsAboveDb, rmsDb, TURKISH_500 } from '../../test/helpers/tts-support';

// Real espeak-ng and sox (Debian packages), as production runs them.
const espeak = (voice: string) => createEspeakRenderer({ binary: 'espeak-ng', voice, speedWpm: 150, pitch: 50, gapMs: 10 });
const seconds = (samples: Int16Array, rate: number) => samples.length / rate;

describe('espeak-ng adapter (real espeak-ng)', () => {
  it.each([
    ['tr', 'Web sunucusu yanıt vermiyor, disk kullanımı yüzde doksan beş.'],
    ['en', 'The web server is not responding, disk usage is ninety five percent.'],
  ])('%s: duration plausible for the length, no clipping, nothing above 4 kHz at 8 kHz', async (voice, text) => {
    const pcm = await espeak(voice).render(text);
    expect(pcm.sampleRate).toBe(22050);
    // 150 wpm ≈ 12–16 characters a second; allow 0.4x–2x of that for pauses and voices.
    const s = seconds(pcm.samples, pcm.sampleRate);
    expect(s).toBeGreaterThan(text.length / 40);
    expect(s).toBeLessThan(text.length / 6);
    expect(peak(pcm.samples)).toBeLessThan(0.999); // espeak-ng itself does not clip

    const phone = await resampleToTelephone(pcm, 'sox');
    expect(seconds(phone, TELEPHONE_RATE)).toBeCloseTo(s, 1);
    expect(peak(phone)).toBeLessThan(0.75); // -3 dBFS target, G.711 ceiling is 0.98
    expect(peak(phone)).toBeGreaterThan(0.6);
    // The top of the band (3.9–4 kHz) is the anti-alias filter's stop band: > 40 dB down.
    expect(rmsDb(phone) - rmsAboveDb(phone, TELEPHONE_RATE, 3900)).toBeGreaterThan(40);
  });

  it.each([
    ['a leading dash and options', '-v en --help -s 900'],
    ['SSML tags', '<speak><prosody rate="x-fast">Merhaba</prosody></speak>'],
    ['quotes and newlines', 'Sunucu "web-01" \'düştü\'\nİkinci satır\n\nÜçüncü'],
    ['500 characters of Turkish', TURKISH_500],
  ])('speaks %s literally', async (_what, text) => {
    const pcm = await espeak('tr').render(text);
    expect(seconds(pcm.samples, pcm.sampleRate)).toBeGreaterThan(text.length / 40);
  });

  it('reads markup out instead of obeying it', async () => {
    const plain = await espeak('tr').render('Merhaba');
    const tagged = await espeak('tr').render('<speak>Merhaba</speak>');
    // With markup interpretation on, both would be the same single word.
    expect(tagged.samples.length).toBeGreaterThan(plain.samples.length * 1.5);
  });

  it('fails with ENGINE_MISSING naming the binary when it is not there', async () => {
    const r = createEspeakRenderer({ binary: '/nonexistent/espeak-ng', voice: 'tr', speedWpm: 150, pitch: 50, gapMs: 0 });
    await expect(r.render('test')).rejects.toMatchObject({ code: 'ENGINE_MISSING' });
  });

  it('fails with ENGINE_FAILED for a voice espeak-ng does not have', async () => {
    await expect(espeak('xx-nonexistent').render('test')).rejects.toMatchObject({ code: 'ENGINE_FAILED' });
  });
});

describe('resampling to 8 kHz (sox rate)', () => {
  it('filters before decimating: a 5 kHz tone does not fold back to 3 kHz', async () => {
    const rate = 22050;
    const samples = Int16Array.from({ length: rate }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 1000 * i) / rate) + 8000 * Math.sin((2 * Math.PI * 5000 * i) / rate)),
    );
    const phone = await resampleToTelephone({ samples, sampleRate: rate }, 'sox');
    expect(phone.length).toBeCloseTo(TELEPHONE_RATE, -1);
    // Naive decimation would leave the 5 kHz tone at 3 kHz with the 1 kHz tone's level.
    const at = (hz: number) => goertzelDb(phone, TELEPHONE_RATE, hz);
    expect(at(1000) - at(3000)).toBeGreaterThan(60);
  });
});

function goertzelDb(x: Int16Array, rate: number, hz: number): number {
  const k = (2 * Math.PI * hz) / rate;
  const c = 2 * Math.cos(k);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < x.length; i++) {
    // Hann window so the 1 kHz tone's leakage does not hide what is at 3 kHz.
    const s0 = x[i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (x.length - 1))) + c * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return 10 * Math.log10(Math.max(s1 * s1 + s2 * s2 - c * s1 * s2, 1e-12));
}
