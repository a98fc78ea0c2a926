import { createBeepDetector } from './beep';
import type { AmdReason, AnsweredBy } from '../call-model';
import { createAmdMachine, isAnalysing, verdictOf, type AmdEvent, type AmdState } from './machine';
import { LATE_BEEP_MS, MAILBOX_WAIT_MS, SILENCE_THRESHOLD, VOICED_RUN_MS, type AmdTimings } from './options';
import { createVoicing, VOICED_CORRELATION } from './voicing';

/** What the analysis found, `atMs` after the answer (counted in audio heard). */
export interface AmdVerdict {
  answeredBy: AnsweredBy;
  reason: AmdReason;
  atMs: number;
}

/**
 * What a frame (or a key, or the clock) changed:
 * - `decided`: the verdict; for `human` and `unknown` the analysis is over.
 * - `recording`: a machine's mailbox records from now (its beep ended, its greeting ended, or
 *   MAILBOX_WAIT_MS passed): a message left starts here.
 */
export type AmdUpdate = { kind: 'decided'; verdict: AmdVerdict } | { kind: 'recording'; atMs: number; why: 'beep_end' | 'greeting_end' | 'deadline' };

export interface AmdDetector {
  readonly state: AmdState;
  /** Nothing more can change: a person or unknown decided, or a mailbox recording past LATE_BEEP_MS. Feeding it more is harmless. */
  readonly done: boolean;
  /** Feeds 20 ms (or any length) of 8 kHz linear PCM, in order, from the answer on. */
  push(samples: Int16Array): AmdUpdate[];
  /** A keypad digit arrived: a person, if the analysis still runs. */
  key(): AmdUpdate[];
  /**
   * `elapsedMs` since the answer passed on a clock (RTP that stopped sends no frames to count):
   * ends an analysis past total_analysis_ms, and a mailbox wait past MAILBOX_WAIT_MS.
   */
  clock(elapsedMs: number): AmdUpdate[];
}

/**
 * Asterisk app_amd's counting (apps/app_amd.c `isAnsweringMachine`), frame by frame: a frame
 * is voice when its mean absolute sample reaches SILENCE_THRESHOLD. Voice adds to the run of
 * the current word and to the greeting's total; silence of between_words_silence_ms ends a
 * word; the silence count restarts on voice once a word's worth of voice was heard (so a click
 * in the initial silence does not restart it). The machine (machine.ts) takes the events.
 *
 * One difference from Asterisk: a run of loud frames is speech only once VOICED_RUN_MS of it
 * is voiced (voicing.ts), so a breath or a rustle before "Alo, buyrun." is not a fourth word
 * (max_words) nor part of the greeting's length. Until then its frames count as silence; when
 * the run turns out voiced (a word that starts with "s", "k" or "h"), its frames so far count
 * as voice at once, as one piece.
 */
export function createAmdDetector(t: AmdTimings): AmdDetector {
  const machine = createAmdMachine();
  const beep = createBeepDetector();
  let atMs = 0;
  let voiceMs = 0;
  let runMs = 0;
  let silenceMs = 0;
  let words = 0;
  /** Silence since the machine's greeting last spoke (any voice restarts it). */
  let quietMs = 0;
  /** When the mailbox was last taken to record. */
  let recordingAtMs = 0;
  const voicing = createVoicing();
  /** The run of loud frames under way (ended by between_words_silence_ms of quiet): is it speech yet, its length, its voiced part. */
  let runIsSpeech = false;
  let pendingMs = 0;
  let runVoicedMs = 0;
  let quietRunMs = 0;
  const done = () => machine.state === 'human' || machine.state === 'unknown' || (machine.state === 'recording' && atMs - recordingAtMs > LATE_BEEP_MS);

  const fire = (event: AmdEvent, out: AmdUpdate[], at = atMs) => {
    const from = machine.state;
    if (!machine.on(event)) return;
    const verdict = verdictOf(from, event);
    if (verdict) out.push({ kind: 'decided', verdict: { ...verdict, atMs: at } });
    if (machine.state === 'recording') recordingAtMs = at;
    if (machine.state === 'recording') out.push({ kind: 'recording', atMs: at, why: event as 'beep_end' | 'greeting_end' | 'deadline' });
  };

  const analyse = (voice: boolean, frameMs: number, out: AmdUpdate[]) => {
    if (voice) {
      runMs += frameMs;
      voiceMs += frameMs;
      if (voiceMs >= t.minWordMs) silenceMs = 0;
      if ((machine.state === 'initial_silence' || machine.state === 'gap') && runMs >= t.minWordMs) {
        words++;
        fire('speech', out);
      }
      if (machine.state === 'word' && words > t.maxWords) fire('too_many_words', out);
      if ((machine.state === 'word' || machine.state === 'gap') && voiceMs >= t.greetingMs) fire('long_greeting', out);
    } else {
      silenceMs += frameMs;
      if (silenceMs >= t.betweenWordsSilenceMs) {
        runMs = 0;
        if (machine.state === 'word') fire('pause', out);
      }
      if (machine.state === 'initial_silence' && silenceMs >= t.initialSilenceMs) fire('silence_limit', out);
      if (machine.state === 'gap' && silenceMs >= t.afterGreetingSilenceMs) fire('greeting_end', out);
    }
  };

  /** Passes a frame to `analyse` as voice only when its run of loud frames is speech (see above). */
  const gate = (loud: boolean, frameMs: number, out: AmdUpdate[]) => {
    if (!loud) {
      quietRunMs += frameMs;
      if (quietRunMs >= t.betweenWordsSilenceMs) [runIsSpeech, pendingMs, runVoicedMs] = [false, 0, 0];
      return analyse(false, frameMs, out);
    }
    quietRunMs = 0;
    if (runIsSpeech) return analyse(true, frameMs, out);
    pendingMs += frameMs;
    if (voicing.correlation() >= VOICED_CORRELATION) runVoicedMs += frameMs;
    if (runVoicedMs < VOICED_RUN_MS) return analyse(false, frameMs, out);
    runIsSpeech = true;
    analyse(true, pendingMs, out);
  };

  const clock = (elapsedMs: number): AmdUpdate[] => {
    const out: AmdUpdate[] = [];
    // Frames counted and the clock each end it; the verdict says when, on the one that did.
    if (isAnalysing(machine.state) && elapsedMs >= t.totalAnalysisMs) fire('timeout', out, elapsedMs);
    if ((machine.state === 'greeting' || machine.state === 'beep') && elapsedMs >= MAILBOX_WAIT_MS) fire('deadline', out, elapsedMs);
    return out;
  };

  return {
    get state() {
      return machine.state;
    },
    get done() {
      return done();
    },
    push(samples) {
      const out: AmdUpdate[] = [];
      if (done()) return out;
      const frameMs = samples.length / 8;
      atMs += frameMs;
      let sum = 0;
      for (let i = 0; i < samples.length; i++) sum += Math.abs(samples[i]!);
      const voice = samples.length > 0 && sum / samples.length >= SILENCE_THRESHOLD;
      voicing.push(samples);
      const tone = beep.push(samples);
      if (tone === 'started') fire('beep', out);
      if (tone === 'ended' && machine.state === 'beep') fire('beep_end', out);
      if (isAnalysing(machine.state)) gate(voice, frameMs, out);
      if (machine.state === 'greeting') {
        quietMs = voice ? 0 : quietMs + frameMs;
        if (quietMs >= t.afterGreetingSilenceMs) fire('greeting_end', out);
      }
      out.push(...clock(atMs));
      return out;
    },
    key() {
      const out: AmdUpdate[] = [];
      fire('key', out);
      return out;
    },
    clock,
  };
}
