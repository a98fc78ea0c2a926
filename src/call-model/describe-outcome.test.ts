import { describe, expect, it } from 'vitest';
import { describeOutcome } from './describe-outcome';
import { judge } from '../self-test/verdict';

describe('describeOutcome: one vocabulary for a dead trunk (docs/telephony.md "SIP trunks: several, in order")', () => {
  it('no response at all to the INVITE is "trunk did not answer", not a callee who did not pick up', () => {
    expect(describeOutcome({ code: 'NO_ANSWER', status: 487, reason: 'no response to the INVITE within ring timeout', silent: true })).toBe(
      'trunk did not answer: no response to the INVITE within ring timeout',
    );
    expect(describeOutcome({ code: 'SIP_FINAL', status: 408, reason: 'Request Timeout (no response)', local: true })).toBe(
      'trunk did not answer: no response to the INVITE (local 408 Request Timeout (no response))',
    );
  });

  it('everything else keeps its code, SIP status and reason', () => {
    expect(describeOutcome({ code: 'NO_ANSWER', status: 487, reason: 'no answer within ring timeout' })).toBe('NO_ANSWER 487 no answer within ring timeout');
    expect(describeOutcome({ code: 'SIP_FINAL', status: 408, reason: 'Request Timeout' })).toBe('SIP_FINAL 408 Request Timeout');
    expect(describeOutcome({ code: 'SIP_FINAL', status: 503, reason: 'connect ECONNREFUSED', local: true })).toBe('SIP_FINAL 503 connect ECONNREFUSED');
    expect(describeOutcome({ code: 'NETWORK', status: null, reason: 'trunk pbx is not started' })).toBe('NETWORK trunk pbx is not started');
  });

  it('the self-test says it the same way', () => {
    const silent = { code: 'NO_ANSWER', status: 487, reason: 'no response to the INVITE within ring timeout', silent: true } as const;
    expect(judge(silent, null, 'echo', 250).reason).toBe('not answered: trunk did not answer: no response to the INVITE within ring timeout');
  });
});
