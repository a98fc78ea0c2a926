import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../config';
import { silentLogger } from '../log';
import { createCallAudioSource } from './index';
import { tempDir, ttsConfig } from '../../test/helpers/tts-support';

/** A wrapper around the real espeak-ng that counts its starts (still real speech). */
function countingEspeak(dir: string): { binary: string; starts: () => number } {
  const binary = join(dir, 'espeak-ng-counting');
  const counter = join(dir, 'starts');
  writeFileSync(counter, '');
  writeFileSync(binary, `#!/bin/sh\necho x >> '${counter}'\nexec espeak-ng "$@"\n`);
  chmodSync(binary, 0o755);
  return { binary, starts: () => readFileSync(counter, 'utf8').length / 2 };
}

/**
 * A wrapper around the real espeak-ng that keeps every text it was given (on stdin), one line
 * each, in `said`, then speaks it for real. Each text goes in with its line break in one
 * append (O_APPEND, well under PIPE_BUF): renders run side by side, and a text written apart
 * from its line break once ran into the next one's line.
 */
function recordingEspeak(dir: string): { binary: string; said: string } {
  const said = join(dir, 'said');
  const binary = join(dir, 'espeak-ng-recording');
  writeFileSync(said, '');
  writeFileSync(binary, `#!/bin/sh\ntext=$(cat)\nprintf '%s\\n' "$text" >> '${said}'\nprintf '%s\\n' "$text" | exec espeak-ng "$@"\n`);
  chmodSync(binary, 0o755);
  return { binary, said };
}

describe('createCallAudioSource (real espeak-ng and sox)', () => {
  it('plays intro, the message calls.repeat times, and the keypad prompt, in both laws', async () => {
    const dataDir = tempDir();
    const once = createCallAudioSource(ttsConfig({}, { repeat: 1 }), { log: silentLogger(), dataDir });
    const twice = createCallAudioSource(ttsConfig({}, { repeat: 2 }), { log: silentLogger(), dataDir });
    const a = await once.forMessage('Web sunucusu yanıt vermiyor.');
    const b = await twice.forMessage('Web sunucusu yanıt vermiyor.');
    expect(a.pcmu.length).toBe(a.pcma.length);
    expect(a.durationMs).toBe(Math.round(a.pcmu.length / 8));
    // The second repetition adds the message and one pause (1000 ms) exactly.
    const messageMs = b.durationMs - a.durationMs - 1000;
    expect(messageMs).toBeGreaterThan(1000);
    expect(messageMs).toBeLessThan(4000);
    expect(once.language).toBe('tr');
  });

  it('renders a repeated text once: the second call does not start espeak-ng', async () => {
    const dir = tempDir();
    const espeak = countingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: espeak.binary }), { log: silentLogger(), dataDir: dir });
    const first = await source.forMessage('Disk dolu: db-01');
    const startsAfterFirst = espeak.starts();
    expect(startsAfterFirst).toBe(3); // intro, message, prompt
    const storm = await Promise.all([1, 2, 3, 4, 5].map(() => source.forMessage('Disk dolu: db-01')));
    expect(espeak.starts()).toBe(startsAfterFirst);
    for (const s of storm) expect(Buffer.from(s.pcmu).equals(Buffer.from(first.pcmu))).toBe(true);

    // A new process on the same data folder (a restart) still finds it.
    const restarted = createCallAudioSource(ttsConfig({ espeak_binary: espeak.binary }), { log: silentLogger(), dataDir: dir });
    await restarted.forMessage('Disk dolu: db-01');
    expect(espeak.starts()).toBe(startsAfterFirst);
  });

  it('concurrent first renders of one text share one espeak-ng run', async () => {
    const dir = tempDir();
    const espeak = countingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: espeak.binary }), { log: silentLogger(), dataDir: dir });
    await Promise.all([1, 2, 3].map(() => source.forMessage('Aynı anda gelen alarm')));
    expect(espeak.starts()).toBe(3);
  });

  it('an empty text after normalisation is an error, not silence', async () => {
    const source = createCallAudioSource(ttsConfig(), { log: silentLogger(), dataDir: tempDir() });
    await expect(source.forMessage('🔥🚨 !!! ---')).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    await expect(source.forMessage('')).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
  });

  it('speaks English prompts with an English voice, and the acknowledgement', async () => {
    const source = createCallAudioSource(ttsConfig({ voice: 'en-us' }), { log: silentLogger(), dataDir: tempDir() });
    expect(source.language).toBe('en');
    const ack = await source.acknowledged();
    expect(ack.durationMs).toBeGreaterThan(1000);
    expect(ack.durationMs).toBe(Math.round(ack.pcma.length / 8));
  });

  it("names an escalation's later call before the intro, and says which number is recorded as acknowledging", async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: binary }, { repeat: 1 }), { log: silentLogger(), dataDir: dir });
    const first = await source.forMessage('Disk dolu', { escalationOrdinal: 1 });
    const second = await source.forMessage('Disk dolu', { escalationOrdinal: 2 });
    expect(second.durationMs).toBeGreaterThan(first.durationMs + 1000);
    const plain = await source.acknowledged();
    const named = await source.acknowledged('5321234567');
    expect(named.durationMs).toBeGreaterThan(plain.durationMs + 1000);
    const texts = readFileSync(said, 'utf8');
    expect(texts).toContain('İkinci arama: bu alarmı henüz kimse onaylamadı. Bu otomatik bir alarm çağrısıdır.');
    expect(texts).toContain('Onaylayan numara kaydedildi: 5 3 2 1 2 3 4 5 6 7.');
  });

  it("a verification call says who it is for and asks to press 1, in the person's language, and no alert words (docs/on-call.md \"Verification\")", async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: binary }, { repeat: 1 }), { log: silentLogger(), dataDir: dir });
    const en = await source.forVerification('Ayşe', { language: 'en' });
    const tr = await source.forVerification('Ayşe', { language: 'tr' });
    const done = await source.verified({ language: 'en' });
    expect(Math.min(en.durationMs, tr.durationMs, done.durationMs)).toBeGreaterThan(500);
    const texts = readFileSync(said, 'utf8');
    expect(texts).toContain('This is voice alert checking the number of Ayşe.'); // as normalised for speech
    expect(texts).toContain('Press 1 to confirm.');
    expect(texts).toContain('Ayşe için numara doğrulama aramasıdır.');
    expect(texts).toContain("Doğrulamak için 1'e basın.");
    expect(texts).toContain('Thank you, the number is confirmed.');
    expect(texts).not.toContain('alert call');
    expect(texts).not.toContain('alarm');
  });

  it("a hand-off call says the schedule and until when in its local time, in the person's language, and asks to press 1 (docs/on-call.md \"Hand-off calls\")", async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: binary }, { repeat: 1 }), { log: silentLogger(), dataDir: dir });
    // Until Tuesday 06:00Z: 09:00 in Istanbul.
    const h = { schedule: 'noc', until: Date.parse('2026-11-17T06:00:00Z'), timeZone: 'Europe/Istanbul' };
    const en = await source.forHandoff(h, { language: 'en' });
    const tr = await source.forHandoff(h, { language: 'tr' });
    const open = await source.forHandoff({ ...h, until: null }, { language: 'en' });
    const done = await source.handoffConfirmed({ language: 'tr' });
    expect(Math.min(en.durationMs, tr.durationMs, open.durationMs, done.durationMs)).toBeGreaterThan(500);
    const texts = readFileSync(said, 'utf8');
    // As normalised for speech: a time's colon is a pause (src/tts/normalize.ts), "voice-alert" two words.
    expect(texts).toContain('This is voice alert with a hand off. You are now on call for schedule noc until Tuesday 09 00.');
    expect(texts).toContain('You are now on call for schedule noc.');
    expect(texts).toContain('Press 1 to confirm you have taken over.');
    expect(texts).toContain('noc çizelgesinde nöbet şimdi sizde. Nöbetin bitişi: Salı 09 00.');
    expect(texts).toContain("Nöbeti devraldığınızı onaylamak için 1'e basın.");
    expect(texts).toContain('Teşekkürler, nöbet devri onaylandı.');
    expect(texts).not.toContain('alert call');
  });

  it('speaks a bundle as one message naming each alert, and keeps 10 long alerts within calls.max_call_s', async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: binary }, { repeat: 2, max_call_s: 60 }), { log: silentLogger(), dataDir: dir });
    await source.forBundle(['Disk dolu', 'Web sunucusu yanıt vermiyor', 'Ping kaybı'] );
    expect(readFileSync(said, 'utf8')).toContain('3 alarm. Birinci: Disk dolu. İkinci: Web sunucusu yanıt vermiyor. Üçüncü: Ping kaybı.');
    const long = Array.from({ length: 10 }, (_, i) => `Sunucu ${i + 1} yanıt vermiyor. Son kontrol başarısız oldu ve hizmet kapalı, lütfen hemen bakın, veritabanı bağlantıları da düşüyor.`);
    const bundle = await source.forBundle(long);
    // Within 80 % of max_call_s (room for the keypad answer), every alert still named.
    expect(bundle.durationMs).toBeLessThanOrEqual(48_000);
    const record = readFileSync(said, 'utf8');
    const last = record.slice(record.lastIndexOf('10 alarm.')).split('\n')[0]!;
    for (const name of ['Birinci', 'İkinci', 'Onuncu']) expect(last).toContain(`${name}: Sunucu`);
  });

  it('a storm bundle names its first ten and says how many there were', async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const source = createCallAudioSource(ttsConfig({ espeak_binary: binary }, { repeat: 1 }), { log: silentLogger(), dataDir: dir });
    const bundle = await source.forBundle(Array.from({ length: 40 }, (_, i) => `Alarm ${i + 1}`));
    // (Texts rendered at once can share a line of the record: search the whole of it.)
    const text = readFileSync(said, 'utf8');
    expect(text).toContain('40 alarm. İlk 10 tanesi: Birinci: Alarm 1. İkinci: Alarm 2.');
    expect(text).toContain('Onuncu: Alarm 10.');
    expect(text).not.toContain('Alarm 11');
    expect(bundle.durationMs).toBeLessThan(60_000);
  });

  it('a voicemail ends with the voicemail sentence, and names the voice desk\'s number when voice_desk.number is set, in the box\'s language (docs/telephony.md "Voicemail detection")', async () => {
    const dir = tempDir();
    const { binary, said } = recordingEspeak(dir);
    const tts = { espeak_binary: binary, voice: 'en' };
    const plain = createCallAudioSource(configSchema.parse({ tts }), { log: silentLogger(), dataDir: dir });
    const withDesk = createCallAudioSource(configSchema.parse({ tts, voice_desk: { number: '+904400*1' } }), { log: silentLogger(), dataDir: dir });
    const without = await plain.forVoicemail!(['Disk full on db1']);
    const named = await withDesk.forVoicemail!(['Disk full on db1']);
    await withDesk.forVoicemail!(['Disk full on db1'], { language: 'tr' });
    // The number is said sign by sign: a few seconds more.
    expect(named.durationMs).toBeGreaterThan(without.durationMs + 2000);
    const lines = readFileSync(said, 'utf8').split('\n');
    expect(lines).toContain('This message was left on a voicemail; the alert is not acknowledged.');
    expect(lines).toContain('This message was left on a voicemail; the alert is not acknowledged. To hear it and acknowledge it, call the voice desk on plus 9 0 4 4 0 0 star 1.');
    expect(lines).toContain('Bu mesaj sesli mesaj kutusuna bırakıldı; alarm onaylanmadı. Dinlemek ve onaylamak için sesli masayı arayın: artı 9 0 4 4 0 0 yıldız 1.');
  });

  it('voice_desk.number takes a number or extension, or nothing', () => {
    expect(configSchema.parse({}).voice_desk.number).toBe('');
    expect(configSchema.parse({ voice_desk: { number: '4400' } }).voice_desk.number).toBe('4400');
    expect(() => configSchema.parse({ voice_desk: { number: '44 00' } })).toThrow(/a number or extension/);
    expect(() => configSchema.parse({ voice_desk: { number: 'desk' } })).toThrow(/a number or extension/);
  });
});
