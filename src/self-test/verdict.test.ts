import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../call-model';
import { selfTestSignal, signalFrames } from './signal';
import { judge } from './verdict';

const played: CallOutcome = { code: 'COMPLETED', status: 200, reason: 'message played', remoteHangup: false };
const report = (framesPlayed: number, returned: number | null, packetsReceived = 0) => ({
  packetsSent: framesPlayed + 10,
  framesPlayed,
  packetsReceived,
  echo: returned === null ? null : { frames: framesPlayed, returned },
});

describe('self-test verdict (docs/telephony.md "Voice-path self-test")', () => {
  it('answer: passes when every frame of the signal left as RTP', () => {
    expect(judge(played, report(250, null), 'answer', 250)).toEqual({ ok: true, reason: 'answered; our RTP flowed for 5 s', echoRatio: null });
  });

  it('answer: fails when the far end hung up before the signal ended', () => {
    const v = judge({ code: 'INTERRUPTED', status: 200, reason: 'far end hung up before the message was played once in full' }, report(100, null), 'answer', 250);
    expect(v).toMatchObject({ ok: false, reason: 'answered, but our RTP flowed for only 2 s of 5 s (the far end hung up)' });
  });

  it('not answered: the SIP outcome is the reason', () => {
    expect(judge({ code: 'SIP_FINAL', status: 404, reason: 'Not Found' }, null, 'echo', 250)).toEqual({ ok: false, reason: 'not answered: SIP_FINAL 404 Not Found', echoRatio: null });
    expect(judge({ code: 'NETWORK', status: null, reason: 'trunk pbx is not started' }, null, 'answer', 250).reason).toBe('not answered: NETWORK trunk pbx is not started');
  });

  it('echo: at least 80 % of the frames back in order passes; less fails, saying how much came back', () => {
    expect(judge(played, report(250, 200), 'echo', 250)).toEqual({ ok: true, reason: 'echo: 200 of 250 frames came back in order (80 %)', echoRatio: 0.8 });
    expect(judge(played, report(250, 199), 'echo', 250)).toEqual({
      ok: false,
      reason: 'echo too weak: 199 of 250 frames came back in order (79.6 %, at least 80 % needed)',
      echoRatio: 0.796,
    });
  });

  it('echo: nothing of ours came back names whether any RTP came at all', () => {
    expect(judge(played, report(250, 0, 0), 'echo', 250)).toEqual({ ok: false, reason: 'no echo: no RTP at all came back (250 frames sent)', echoRatio: 0 });
    expect(judge(played, report(250, 0, 240), 'echo', 250).reason).toBe('no echo: 240 RTP packets came back, none of them ours (250 frames sent)');
  });

  it('the signal: duration_s of distinct 20 ms frames in both laws', () => {
    const s = selfTestSignal(1000);
    expect(signalFrames(1000)).toBe(50);
    expect(s.pcmu.length).toBe(50 * 160);
    expect(s.pcma.length).toBe(50 * 160);
    const frames = new Set(Array.from({ length: 50 }, (_, i) => Buffer.from(s.pcmu.subarray(i * 160, i * 160 + 160)).toString('hex')));
    expect(frames.size).toBe(50);
    expect(Buffer.from(selfTestSignal(1000).pcmu).equals(Buffer.from(s.pcmu))).toBe(true); // the same every time
  });
});
