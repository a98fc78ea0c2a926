import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../call-model';
import { decide } from './retry-policy';

const config = { retry_delays_s: [60, 180], max_attempts: 3 };
const final = (status: number): CallOutcome => ({ code: 'SIP_FINAL', status, reason: 'x' });

describe('retry policy (one place)', () => {
  it.each([403, 404, 484, 603])('%i is rejected and never retried', (s) => {
    expect(decide(final(s), 1, 0, config)).toMatchObject({ final: true, state: 'rejected', sipCode: s });
  });
  it.each([
    [486, 'busy'],
    [600, 'busy'],
    [408, 'no_answer'],
    [480, 'no_answer'],
    [500, 'failed'],
    [503, 'failed'],
    [407, 'failed'],
  ])('%i is retried as %s with the configured delays, then final', (s, kind) => {
    expect(decide(final(s), 1, 0, config)).toMatchObject({ final: false, kind, runAfter: 60_000 });
    expect(decide(final(s), 2, 0, config)).toMatchObject({ final: false, kind, runAfter: 180_000 });
    expect(decide(final(s), 3, 0, config)).toMatchObject({ final: true, state: kind });
  });
  it('no answer, network, media and audio failures are retried; the last delay repeats', () => {
    const more = { retry_delays_s: [5], max_attempts: 5 };
    expect(decide({ code: 'NO_ANSWER', status: 487, reason: 'r' }, 3, 0, more)).toMatchObject({ final: false, kind: 'no_answer', runAfter: 5000 });
    for (const code of ['NETWORK', 'MEDIA'] as const) {
      expect(decide({ code, status: null, reason: 'r' }, 1, 0, more)).toMatchObject({ final: false, kind: 'failed' });
    }
    expect(decide({ code: 'AUDIO', status: null, reason: 'r', errorCode: 'ENGINE_FAILED' }, 1, 0, more)).toMatchObject({ final: false, kind: 'failed' });
    expect(decide({ code: 'AUDIO', status: null, reason: 'r', errorCode: 'EMPTY_TEXT' }, 1, 0, more)).toMatchObject({ final: true, state: 'failed' });
  });
  it('a trunk that sent nothing back is said so in the reason (issue 49: one vocabulary), its state still no_answer', () => {
    const silent = { code: 'NO_ANSWER', status: 487, reason: 'no response to the INVITE within ring timeout', silent: true } as const;
    expect(decide(silent, 1, 0, config)).toMatchObject({ final: false, kind: 'no_answer', reason: 'trunk did not answer: no response to the INVITE within ring timeout' });
    expect(decide(silent, 3, 0, config)).toMatchObject({ final: true, state: 'no_answer', sipCode: 487, reason: 'trunk did not answer: no response to the INVITE within ring timeout (attempt 3 of 3)' });
    const timerB = { code: 'SIP_FINAL', status: 408, reason: 'Request Timeout (no response)', local: true } as const;
    expect(decide(timerB, 1, 0, config).reason).toBe('trunk did not answer: no response to the INVITE (local 408 Request Timeout (no response))');
    // A 487 the trunk itself sent after ringing keeps its code: something answered.
    expect(decide({ code: 'NO_ANSWER', status: 487, reason: 'ring timeout' }, 1, 0, config).reason).toBe('487 ring timeout');
  });
  it('a message the far end cut before it was played once in full is retried, and fails with the reason when attempts are used up', () => {
    const cut = { code: 'INTERRUPTED', status: 200, reason: 'far end hung up before the message was played once in full' } as const;
    expect(decide(cut, 1, 0, { retry_delays_s: [5], max_attempts: 3 })).toMatchObject({ final: false, kind: 'failed', runAfter: 5000, sipCode: 200 });
    expect(decide(cut, 3, 0, { retry_delays_s: [5], max_attempts: 3 })).toEqual({
      final: true,
      state: 'failed',
      sipCode: 200,
      reason: '200 far end hung up before the message was played once in full (attempt 3 of 3)',
    });
  });
  it('answered outcomes are final', () => {
    expect(decide({ code: 'COMPLETED', status: 200, reason: 'ok', remoteHangup: false }, 1, 0, config)).toMatchObject({ final: true, state: 'completed' });
    expect(decide({ code: 'ACKNOWLEDGED', status: 200, reason: 'ok' }, 3, 0, config)).toMatchObject({ final: true, state: 'acknowledged' });
  });
  it('488 and 606 (our offer refused) fail at once: a retry would send the identical offer', () => {
    for (const s of [488, 606]) expect(decide(final(s), 1, 0, config)).toEqual({ final: true, state: 'failed', sipCode: s, reason: `${s} x` });
  });
  it('a 503 Retry-After longer than our delay is honoured; a shorter one leaves our delay', () => {
    const unavailable = (retryAfterS: number): CallOutcome => ({ code: 'SIP_FINAL', status: 503, reason: 'Service Unavailable', retryAfterS });
    expect(decide(unavailable(300), 1, 1000, config)).toMatchObject({ final: false, kind: 'failed', runAfter: 301_000 });
    expect(decide(unavailable(10), 1, 1000, config)).toMatchObject({ final: false, kind: 'failed', runAfter: 61_000 });
  });
});
