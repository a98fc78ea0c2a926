import { describe, expect, it } from 'vitest';
import { createAmdDetector, type AmdUpdate } from './detector';
import { AMD_DEFAULTS, MAILBOX_WAIT_MS } from './options';
import { concat, frames, noise, silence, tone, voice } from './synth';

/** Every update the detector gave for the signal, fed in 20 ms frames. */
function run(signal: Int16Array, d = createAmdDetector(AMD_DEFAULTS)) {
  const updates: AmdUpdate[] = [];
  for (const f of frames(signal)) updates.push(...d.push(f));
  return { d, updates, decided: updates.find((u) => u.kind === 'decided'), recording: updates.find((u) => u.kind === 'recording') };
}

describe('the voicemail detector (Asterisk app_amd timings, contract defaults)', () => {
  it('silence only: unknown, initial_silence, at initial_silence_ms', () => {
    const { d, decided, updates } = run(silence(4000));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'unknown', reason: 'initial_silence', atMs: 2500 } });
    expect(updates).toHaveLength(1);
    expect(d.state).toBe('unknown');
  });

  it('a short "Hello?" then silence: human, short_greeting, after_greeting_silence_ms after it', () => {
    const { decided } = run(concat(silence(300), voice(400), silence(2000)));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'human', reason: 'short_greeting', atMs: 300 + 400 + 800 } });
  });

  it('a quiet breath of noise before the word does not count as speech', () => {
    const { decided } = run(concat(noise(300, 200, 7), voice(300), silence(1500)));
    expect(decided?.kind === 'decided' && decided.verdict.answeredBy).toBe('human');
  });

  it('a loud breath of noise before three words is not a fourth word (nor part of the greeting): human', () => {
    const word = concat(voice(200), silence(150));
    const { decided } = run(concat(silence(300), noise(250, 2500, 3), silence(250), word, word, word, silence(1000)));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'human', reason: 'short_greeting', atMs: 300 + 250 + 250 + 3 * 350 - 150 + 800 } });
  });

  it('a word that starts unvoiced ("s", "h") counts whole once its vowel comes: its noise adds to the greeting', () => {
    const word = concat(noise(80, 2500, 5), voice(320), silence(150));
    // 4 × 400 ms of loud sound: long_greeting at 1500 ms of it, in the fourth word's vowel.
    const { decided } = run(concat(word, word, word, word, silence(1000)));
    expect(decided?.kind === 'decided' && decided.verdict).toMatchObject({ answeredBy: 'machine' });
    const words = run(concat(word, word, word, silence(1000))).decided;
    expect(words?.kind === 'decided' && words.verdict).toMatchObject({ answeredBy: 'human', reason: 'short_greeting' });
  });

  it('a long greeting: machine, long_greeting, once greeting_ms of voice; recording from its end', () => {
    const { decided, recording } = run(concat(silence(200), voice(2500), silence(1200)));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'machine', reason: 'long_greeting', atMs: 200 + 1500 } });
    expect(recording).toEqual({ kind: 'recording', why: 'greeting_end', atMs: 200 + 2500 + 800 });
  });

  it('more than max_words words: machine, max_words', () => {
    const word = concat(voice(200), silence(160));
    const { decided } = run(concat(word, word, word, word, silence(1000)));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'machine', reason: 'max_words', atMs: 3 * 360 + 100 } });
  });

  it('three words and silence are still a person (max_words = 3)', () => {
    const word = concat(voice(200), silence(150));
    const { decided } = run(concat(word, word, word, silence(1000)));
    expect(decided?.kind === 'decided' && decided.verdict).toMatchObject({ answeredBy: 'human', reason: 'short_greeting' });
  });

  it('a beep after the greeting: the mailbox records from the end of the beep, not the greeting silence before it', () => {
    const { updates } = run(concat(voice(2000), silence(300), tone(1000, 500), silence(1000)));
    expect(updates.map((u) => (u.kind === 'decided' ? u.verdict.reason : u.why))).toEqual(['long_greeting', 'beep_end']);
    const rec = updates.find((u) => u.kind === 'recording')!;
    expect(rec.atMs).toBeGreaterThanOrEqual(2800);
    expect(rec.atMs).toBeLessThanOrEqual(2840);
  });

  it('a beep that comes a while after the greeting ended: the mailbox records again from its end', () => {
    const { updates } = run(concat(voice(2000), silence(1500), tone(800, 400), silence(3000)));
    expect(updates.map((u) => (u.kind === 'decided' ? u.verdict.reason : u.why))).toEqual(['long_greeting', 'greeting_end', 'beep_end']);
    const [, first, second] = updates;
    expect(first).toMatchObject({ atMs: 2000 + 800 });
    expect(second!.kind === 'recording' && second!.atMs).toBeGreaterThanOrEqual(3900);
  });

  it('a tone long after the mailbox began recording is not its beep', () => {
    const d = createAmdDetector(AMD_DEFAULTS);
    const { updates } = run(concat(voice(2000), silence(4000), tone(800, 400), silence(500)), d);
    expect(updates.filter((u) => u.kind === 'recording')).toHaveLength(1);
    expect(d.done).toBe(true);
  });

  it('a beep first: machine, beep', () => {
    const { decided, recording } = run(concat(silence(500), tone(440, 300), silence(500)));
    expect(decided?.kind === 'decided' && decided.verdict).toMatchObject({ answeredBy: 'machine', reason: 'beep' });
    expect(recording).toMatchObject({ why: 'beep_end' });
  });

  it('a key during the analysis: human, keypress; a key during a machine greeting changes nothing', () => {
    const d = createAmdDetector(AMD_DEFAULTS);
    for (const f of frames(voice(200))) d.push(f);
    expect(d.key()).toEqual([{ kind: 'decided', verdict: { answeredBy: 'human', reason: 'keypress', atMs: 200 } }]);
    const m = run(voice(1600)).d;
    expect(m.state).toBe('greeting');
    expect(m.key()).toEqual([]);
    expect(m.state).toBe('greeting');
  });

  it('sounds too short to be words, on and on: unknown, timeout, at total_analysis_ms', () => {
    const blip = concat(voice(60), silence(500));
    const { decided } = run(concat(...Array.from({ length: 12 }, () => blip)));
    expect(decided).toEqual({ kind: 'decided', verdict: { answeredBy: 'unknown', reason: 'timeout', atMs: 5000 } });
  });

  it('RTP that stops: the clock ends the analysis', () => {
    const d = createAmdDetector(AMD_DEFAULTS);
    for (const f of frames(voice(300))) d.push(f);
    expect(d.clock(4000)).toEqual([]);
    expect(d.clock(5010)).toEqual([{ kind: 'decided', verdict: { answeredBy: 'unknown', reason: 'timeout', atMs: 5010 } }]);
  });

  it('a greeting that never stops: the message is left at the 20 s limit', () => {
    const { recording } = run(voice(MAILBOX_WAIT_MS + 1000));
    expect(recording).toEqual({ kind: 'recording', why: 'deadline', atMs: MAILBOX_WAIT_MS });
  });

  it('nothing more after a final verdict', () => {
    const { d } = run(concat(voice(300), silence(1000)));
    expect(d.state).toBe('human');
    expect(d.push(voice(20))).toEqual([]);
    expect(d.key()).toEqual([]);
    expect(d.clock(60_000)).toEqual([]);
  });
});
