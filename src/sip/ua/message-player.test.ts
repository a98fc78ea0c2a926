import { describe, expect, it } from 'vitest';
import type { CallAudio } from '../../call-model';
import { silentLogger } from '../../log';
import type { PlayResult, RtpStreamHandle } from '../rtp/engine';
import { createAnswerAnalysis } from './answer-analysis';
import { createMessagePlayer } from './message-player';

const audio = (n: number): CallAudio => ({ pcmu: new Uint8Array(n).fill(1), pcma: new Uint8Array(n).fill(2), durationMs: n / 8 });
const MESSAGE = audio(160);
const VOICEMAIL = audio(320);

/** A stream that notes when each play starts and what it was, and finishes it at once unless told to hold it. */
function fakeStream() {
  const plays: { at: number; bytes: number }[] = [];
  const t0 = performance.now();
  let hold: ((r: PlayResult) => void) | null = null;
  let holdNext = false;
  const stream: RtpStreamHandle = {
    codec: 'PCMU',
    play: (a) => {
      plays.push({ at: performance.now() - t0, bytes: a.length });
      if (!holdNext) return Promise.resolve('played');
      holdNext = false;
      return new Promise((resolve) => (hold = resolve));
    },
    interrupt: () => (hold?.('stopped'), (hold = null)),
    update: () => undefined,
    hold: () => undefined,
    analysisKey: () => undefined,
  };
  return { stream, plays, t0, holdNextPlay: () => (holdNext = true) };
}

function player(onMachine: 'leave_message' | 'hangup_retry' | 'ignore', answerDelayMs = 300) {
  const s = fakeStream();
  const analysis = createAnswerAnalysis();
  const verdicts: unknown[] = [];
  const p = createMessagePlayer({
    stream: s.stream,
    message: async () => MESSAGE,
    voicemailMessage: async () => VOICEMAIL,
    acknowledgedAudio: async () => audio(80),
    answerDelayMs,
    maxCallMs: 60_000,
    farEndGone: () => false,
    ended: new Promise(() => undefined),
    log: silentLogger(),
    analysis: { state: analysis, onMachine },
    onVerdict: (v) => verdicts.push(v),
  });
  return { ...s, analysis, p, verdicts };
}
const decided = (answeredBy: 'human' | 'machine' | 'unknown', reason: 'short_greeting' | 'long_greeting' | 'keypress' | 'beep', atMs = 0) =>
  ({ kind: 'decided', verdict: { answeredBy, reason, atMs } }) as const;

describe('the message player with voicemail detection (docs/telephony.md "Voicemail detection")', () => {
  it('calls.answer_delay_ms runs during the analysis: a quick verdict waits out the delay, a slow one starts at once', async () => {
    const quick = player('ignore', 300);
    setTimeout(() => quick.analysis.update(decided('human', 'short_greeting')), 50);
    expect(await quick.p.play()).toMatchObject({ code: 'COMPLETED' });
    expect(quick.plays[0]!.at).toBeGreaterThanOrEqual(290);

    const slow = player('ignore', 200);
    let verdictAt = 0;
    setTimeout(() => {
      verdictAt = performance.now() - slow.t0;
      slow.analysis.update(decided('human', 'short_greeting'));
    }, 250);
    await slow.p.play();
    // At the verdict, not the whole delay after it (that would be ≥ 200 ms later).
    expect(slow.plays[0]!.at).toBeGreaterThanOrEqual(verdictAt);
    expect(slow.plays[0]!.at - verdictAt).toBeLessThan(190);
    expect(slow.verdicts).toEqual([{ answeredBy: 'human', amdReason: 'short_greeting' }]);
  });

  it('a 1 pressed during the analysis acknowledges at once: the message never plays', async () => {
    const x = player('leave_message', 0);
    x.p.key('1');
    x.analysis.update(decided('human', 'keypress'));
    expect(await x.p.play()).toMatchObject({ code: 'ACKNOWLEDGED' });
    expect(x.plays.map((p) => p.bytes)).toEqual([80]); // the confirmation only
  });

  it('hangup_retry: a machine is hung up at once, as no answer', async () => {
    const x = player('hangup_retry', 0);
    x.analysis.update(decided('machine', 'long_greeting'));
    expect(await x.p.play()).toMatchObject({ code: 'NO_ANSWER', reason: expect.stringContaining('long_greeting') });
    expect(x.plays).toEqual([]);
  });

  it('leave_message: nothing until the mailbox records, then the voicemail message; a late beep starts it over', async () => {
    const x = player('leave_message', 0);
    x.analysis.update(decided('machine', 'long_greeting'));
    x.holdNextPlay();
    const done = x.p.play();
    await new Promise((r) => setTimeout(r, 30));
    expect(x.plays).toEqual([]);
    x.analysis.update({ kind: 'recording', atMs: 3000, why: 'greeting_end' });
    await expect.poll(() => x.plays.length).toBe(1);
    x.analysis.update({ kind: 'recording', atMs: 4200, why: 'beep_end' }); // a beep after all
    expect(await done).toEqual({ code: 'VOICEMAIL', status: 200, reason: 'message left on a voicemail' });
    expect(x.plays.map((p) => p.bytes)).toEqual([320, 320]);
  });

  it('ignore: a machine hears the message as a person would', async () => {
    const x = player('ignore', 0);
    x.analysis.update(decided('machine', 'beep'));
    expect(await x.p.play()).toMatchObject({ code: 'COMPLETED' });
    expect(x.plays.map((p) => p.bytes)).toEqual([160]);
  });
});
