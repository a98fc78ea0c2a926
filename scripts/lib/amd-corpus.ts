/**
 * The voicemail-detection corpus (issue 46; docs/telephony.md "Voicemail detection"): people
 * answering ("Alo?", "Hello?" and silence) and mailboxes greeting (3–15 s, Turkish and English,
 * beeps of several pitches and lengths, some with none), at 8 kHz µ-law (gzipped: 3.7 MB rather than 6.5). Generated, so its
 * licence is ours: espeak-ng speaks (voices, speeds, pitches varied), sox resamples and sets the
 * level, tones, noise and silence are computed here from a seeded generator. The same espeak-ng
 * and sox give the same files; they are committed (test/fixtures/amd) so a different version
 * never moves the test's floor.
 *
 * A quarter of the clips (3 and 6 of every 8, both languages) are held out: never looked at while tuning, reported
 * apart by scripts/bench-amd.
 *
 *   scripts/amd-corpus            writes test/fixtures/amd/{manifest.json,*.ul.gz}
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { encodeUlaw } from '../../src/g711';

export interface CorpusClip {
  id: string;
  kind: 'human' | 'machine';
  category: string;
  split: 'tuning' | 'heldout';
  language: 'en' | 'tr';
  text: string;
  voice: string;
  /** Where the speech starts and ends, ms from the answer. */
  speechStartMs: number;
  speechEndMs: number;
  /** The beep (machines): its pitch and where it ends; null when the box has none. */
  beep: { hz: number; ms: number; endMs: number } | null;
  durationMs: number;
}

const OUT = join(import.meta.dir, '../../test/fixtures/amd');
const RATE = 8000;

/** mulberry32: a small seeded generator, so every run draws the same corpus. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(46);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const between = (lo: number, hi: number) => Math.round(lo + rnd() * (hi - lo));

const samples = (ms: number) => Math.round((ms * RATE) / 1000);
const silence = (ms: number) => new Int16Array(samples(ms));
function noise(ms: number, amplitude: number): Int16Array {
  const out = new Int16Array(samples(ms));
  // A breath or line hiss: white noise through a one-pole low-pass (softer than white).
  let y = 0;
  for (let i = 0; i < out.length; i++) {
    y = 0.7 * y + 0.3 * (rnd() * 2 - 1);
    out[i] = Math.round(y * amplitude * 2);
  }
  return out;
}
function tone(hz: number, ms: number, amplitude: number, harmonics = 1): Int16Array {
  const out = new Int16Array(samples(ms));
  const ramp = samples(5); // 5 ms fade in and out, as a real beep has (no click)
  for (let i = 0; i < out.length; i++) {
    let s = 0;
    for (let h = 1; h <= harmonics; h++) s += Math.sin((2 * Math.PI * hz * h * i) / RATE) / h;
    const edge = Math.min(1, i / ramp, (out.length - 1 - i) / ramp);
    out[i] = Math.round(amplitude * edge * s);
  }
  return out;
}
/** A few bars of a tune: notes of a major scale with harmonics, like hold music before a greeting. */
function melody(ms: number, amplitude: number): Int16Array {
  const scale = [262, 294, 330, 349, 392, 440, 494, 523];
  const parts: Int16Array[] = [];
  for (let at = 0; at < ms; at += 250) parts.push(tone(pick(scale), 250, amplitude, 4));
  return concat(parts);
}
function concat(parts: Int16Array<ArrayBufferLike>[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
/** Adds a quiet hiss under the whole clip (a line, a room). */
function underlay(signal: Int16Array, amplitude: number): Int16Array {
  const hiss = noise((signal.length * 1000) / RATE, amplitude);
  return signal.map((s, i) => Math.max(-32768, Math.min(32767, s + hiss[i]!)));
}

function run(cmd: string, args: string[]): Buffer {
  const r = spawnSync(cmd, args, { maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** espeak-ng's speech at 8 kHz, its peak at `peakDb` dBFS, leading and trailing silence trimmed. */
function speak(dir: string, text: string, voice: string, speed: number, pitch: number, peakDb: number): Int16Array {
  const wav = join(dir, 'speech.wav');
  // -R: sox seeds its generators the same on every run; -D: no dither. Same input, same bytes.
  run('espeak-ng', ['-v', voice, '-s', String(speed), '-p', String(pitch), '-w', wav, text]);
  const raw = run('sox', ['-R', '-D', wav, '-t', 'raw', '-r', String(RATE), '-e', 'signed', '-b', '16', '-c', '1', '-', 'silence', '1', '0.01', '0.5%', 'reverse', 'silence', '1', '0.01', '0.5%', 'reverse', 'norm', String(peakDb)]);
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

const HUMAN = {
  en: ['Hello?', 'Yes?', 'Hello, yes?', 'Hi.', "Hello, who's this?", 'Speaking.', 'Yeah?', 'Hello there.', "Hi, it's me."],
  tr: ['Alo?', 'Efendim?', 'Alo, buyrun.', 'Evet?', 'Alo, kim o?', 'Buyrun.', 'Efendim, buyrun?', 'Alo, evet.', 'Alo, kimsiniz?'],
} as const;
const MACHINE = {
  en: [
    "Hi, this is Mark. I can't come to the phone right now. Leave a message and I'll call you back.",
    'Hello, you have reached the voicemail of Sarah Jones. Please leave your name and number after the tone.',
    "Hey, it's Dave. I'm not here, leave a message.",
    "You've reached the on-call engineer's phone. I'm away from my desk. Please leave a detailed message after the beep and I will get back to you as soon as possible.",
    'The person you are calling is not available. Please leave a message after the tone.',
    'Welcome to the voice messaging system. The subscriber you have dialled is unavailable. Record your message after the tone. When you are finished, hang up.',
    'Your call has been forwarded to an automated voice messaging system. Five, five, five, two, one, nine, is not available. At the tone, please record your message.',
  ],
  tr: [
    'Merhaba, ben Ayşe. Şu anda telefona cevap veremiyorum. Lütfen mesajınızı bırakın, sizi arayacağım.',
    'Alo, ben Mehmet. Müsait değilim, sinyal sesinden sonra mesaj bırakabilirsiniz.',
    "Selam, Burak'a ulaştınız. Lütfen adınızı ve numaranızı bırakın.",
    'Aradığınız kişiye şu anda ulaşılamıyor. Lütfen sinyal sesinden sonra mesajınızı bırakınız.',
    'Sesli mesaj servisine hoş geldiniz. Aradığınız abone şu anda cevap veremiyor. Mesajınızı sinyal sesinden sonra kaydedebilirsiniz.',
    'Ulaşmaya çalıştığınız numara sesli mesaj kutusuna yönlendirilmiştir. Lütfen bip sesinden sonra mesajınızı bırakın ve telefonu kapatın.',
  ],
} as const;
/** A quarter of each kind, both languages (odd n speak Turkish, even n English): 3 and 6 of every 8. */
const heldOut = (n: number): CorpusClip['split'] => (n % 8 === 3 || n % 8 === 6 ? 'heldout' : 'tuning');
const VOICES = { en: ['en-us', 'en-gb'], tr: ['tr'] } as const;
const VARIANTS = ['m1', 'm3', 'm5', 'm7', 'f1', 'f2', 'f3', 'f4', 'f5'] as const;
const LEVELS = { loud: -1, normal: -8, quiet: -22 } as const;

function human(dir: string, n: number): { clip: CorpusClip; audio: Int16Array } {
  const language = n % 2 ? 'tr' : 'en';
  const text = pick(HUMAN[language]);
  const voice = `${pick(VOICES[language])}+${pick(VARIANTS)}`;
  const level = n % 6 === 1 ? 'loud' : n % 6 === 4 ? 'quiet' : 'normal';
  const breath = n % 5 === 2;
  const speech = speak(dir, text, voice, between(150, 210), between(30, 70), LEVELS[level]);
  const pre = between(150, 700);
  const parts: Int16Array<ArrayBufferLike>[] = breath ? [silence(pre), noise(250, 1200), silence(between(150, 400))] : [silence(pre)];
  const speechStartMs = (concat(parts).length * 1000) / RATE;
  parts.push(speech, silence(2500));
  let audio = concat(parts);
  if (n % 3 === 0) audio = underlay(audio, 30);
  const category = breath ? 'human-breath' : level === 'normal' ? `human-${language}` : `human-${level}`;
  const durationMs = (audio.length * 1000) / RATE;
  return { audio, clip: { id: `human-${String(n).padStart(3, '0')}`, kind: 'human', category, split: heldOut(n), language, text, voice, speechStartMs, speechEndMs: speechStartMs + (speech.length * 1000) / RATE, beep: null, durationMs } };
}

function machine(dir: string, n: number): { clip: CorpusClip; audio: Int16Array } {
  const language = n % 2 ? 'tr' : 'en';
  const text = pick(MACHINE[language]);
  const voice = `${pick(VOICES[language])}+${pick(VARIANTS)}`;
  const music = n === 5;
  const late = n % 7 === 3;
  const noBeep = n % 6 === 2;
  const speech = speak(dir, text, voice, between(160, 200), between(35, 65), pick([LEVELS.loud, LEVELS.normal, LEVELS.normal, -14]));
  const parts: Int16Array<ArrayBufferLike>[] = [silence(late ? between(1000, 1400) : between(100, 500))];
  if (music) parts.push(melody(2000, 5000), silence(200));
  const speechStartMs = (concat(parts).length * 1000) / RATE;
  parts.push(speech);
  const speechEndMs = speechStartMs + (speech.length * 1000) / RATE;
  let beep: CorpusClip['beep'] = null;
  if (!noBeep) {
    const gap = between(200, 900);
    const b = { hz: pick([425, 440, 500, 700, 850, 1000, 1400, 1800]), ms: pick([150, 200, 300, 500, 800, 1000]) };
    parts.push(silence(gap), tone(b.hz, b.ms, pick([6000, 12000, 3000])));
    beep = { ...b, endMs: speechEndMs + gap + b.ms };
  }
  parts.push(silence(1000));
  let audio = concat(parts);
  if (n % 3 === 0) audio = underlay(audio, 30);
  const category = music ? 'machine-music' : noBeep ? 'machine-no-beep' : late ? 'machine-late' : `machine-${language}`;
  const durationMs = (audio.length * 1000) / RATE;
  return { audio, clip: { id: `machine-${String(n).padStart(3, '0')}`, kind: 'machine', category, split: heldOut(n), language, text, voice, speechStartMs, speechEndMs, beep, durationMs } };
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), 'amd-corpus-'));
  mkdirSync(OUT, { recursive: true });
  for (const f of readdirSync(OUT)) if (f.endsWith('.ul.gz')) rmSync(join(OUT, f));
  const clips: CorpusClip[] = [];
  try {
    const count = Number(process.env.CLIPS ?? 64);
    for (let n = 0; n < count; n++) {
      for (const make of [human, machine]) {
        const { clip, audio } = make(dir, n);
        writeFileSync(join(OUT, `${clip.id}.ul.gz`), gzipSync(encodeUlaw(audio), { level: 9 }));
        clips.push(clip);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  clips.sort((a, b) => a.id.localeCompare(b.id));
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify({ rate: RATE, encoding: 'mu-law', tools: { espeak: run('espeak-ng', ['--version']).toString().trim(), sox: run('sox', ['--version']).toString().trim() }, clips }, null, 1) + '\n');
  const bytes = readdirSync(OUT).reduce((n, f) => n + readFileSync(join(OUT, f)).length, 0);
  console.log(`${clips.length} clips, ${(bytes / 1e6).toFixed(1)} MB in ${OUT}`);
}
