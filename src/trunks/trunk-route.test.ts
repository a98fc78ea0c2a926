import { describe, expect, it } from 'vitest';
import type { CallOutcome } from '../call-model';
import { isTrunkFailure, mayDial, noneUpFor, trunkOrder, type RouteTrunk } from './trunk-route';

const final = (status: number, extra: Partial<Extract<CallOutcome, { code: 'SIP_FINAL' }>> = {}): CallOutcome => ({ code: 'SIP_FINAL', status, reason: 'x', ...extra });

describe('which failures move an attempt to the next trunk (docs/telephony.md "SIP trunks: several, in order")', () => {
  it.each<[string, CallOutcome]>([
    ['no response at all within the ring timeout', { code: 'NO_ANSWER', status: 487, reason: 'no response', silent: true }],
    ["Timer B's own 408 (nothing came back)", final(408, { local: true })],
    ["a transport error's own 503 (TCP connect refused)", final(503, { local: true })],
    ['the INVITE could not be sent', { code: 'NETWORK', status: null, reason: 'connect ECONNREFUSED' }],
    ['500 Server Internal Error', final(500)],
    ['502 Bad Gateway', final(502)],
    ['503 Service Unavailable', final(503)],
    ['503 with Retry-After', final(503, { retryAfterS: 60 })],
    ['504 Server Time-out', final(504)],
    ['401 after our credentials', final(401)],
    ['403 Forbidden', final(403)],
    ['407 after our credentials', final(407)],
    ['a plain-RTP answer on a trunk with srtp = "sdes"', { code: 'MEDIA', status: null, reason: 'SRTP required: the PBX answered plain RTP' }],
  ])('moves: %s', (_what, outcome) => {
    expect(isTrunkFailure(outcome)).toBe(true);
  });

  it.each<[string, CallOutcome]>([
    ['486 Busy Here', final(486)],
    ['600 Busy Everywhere', final(600)],
    ['404 Not Found', final(404)],
    ['480 Temporarily Unavailable', final(480)],
    ['484 Address Incomplete', final(484)],
    ["the far end's own 408", final(408)],
    ['488 Not Acceptable Here', final(488)],
    ['580 Precondition Failure', final(580)],
    ['603 Decline', final(603)],
    ['302 redirect not followed', final(302)],
    ['rang, nobody answered', { code: 'NO_ANSWER', status: 487, reason: 'no answer within ring timeout' }],
    ['answered and played', { code: 'COMPLETED', status: 200, reason: 'played', remoteHangup: false }],
    ['acknowledged', { code: 'ACKNOWLEDGED', status: 200, reason: 'pressed 1' }],
    ['hung up early', { code: 'INTERRUPTED', status: 200, reason: 'far end hung up' }],
    ['no usable SDP answer', { code: 'MEDIA', status: null, reason: 'no usable SDP answer' }],
    ['nothing to say', { code: 'AUDIO', status: null, reason: 'empty', errorCode: 'EMPTY_TEXT' }],
    ['our own shutdown', { code: 'ABORTED', status: null, reason: 'stopped' }],
  ])('stays with the callee: %s', (_what, outcome) => {
    expect(isTrunkFailure(outcome)).toBe(false);
  });
});

describe('which trunk a call goes to', () => {
  const t = (name: string, state: RouteTrunk['state'], numbers: RouteTrunk['numbers'] = null): RouteTrunk => ({ name, state, numbers });

  it('the first trunk, in order, that is not down; none (not probed) is tried in its turn', () => {
    expect(trunkOrder([t('a', 'up'), t('b', 'up')], '5321234567').map((x) => x.name)).toEqual(['a', 'b']);
    expect(trunkOrder([t('a', 'down'), t('b', 'none'), t('c', 'up')], '5321234567').map((x) => x.name)).toEqual(['b', 'c']);
    expect(trunkOrder([t('a', 'none'), t('b', 'down')], '5321234567').map((x) => x.name)).toEqual(['a']);
  });

  it('only trunks that may dial the number form (numbers)', () => {
    const trunks = [t('pbx', 'up', ['extension']), t('carrier', 'up', ['tr-mobile', 'e164']), t('any', 'up')];
    expect(trunkOrder(trunks, '1001').map((x) => x.name)).toEqual(['pbx', 'any']);
    expect(trunkOrder(trunks, '5321234567').map((x) => x.name)).toEqual(['carrier', 'any']);
    expect(trunkOrder(trunks, '+4915112345678').map((x) => x.name)).toEqual(['carrier', 'any']);
    expect(trunkOrder([t('pbx', 'up', ['extension'])], '5321234567')).toEqual([]);
    expect(mayDial({ numbers: ['tr-landline'] }, '02121234567')).toBe(true);
    expect(mayDial({ numbers: ['tr-landline'] }, '5321234567')).toBe(false);
  });

  it('every trunk that may dial it is down: they are tried anyway, in order (a state is only the last probe)', () => {
    expect(trunkOrder([t('a', 'down'), t('b', 'down', ['extension']), t('c', 'down')], '5321234567').map((x) => x.name)).toEqual(['a', 'c']);
  });
});

describe('no trunk up for a number (docs/second-path.md "When no trunk is up")', () => {
  const t = (name: string, state: RouteTrunk['state'], numbers: RouteTrunk['numbers'] = null): RouteTrunk => ({ name, numbers, state });
  it('every trunk that may dial it is down', () => {
    expect(noneUpFor([t('a', 'down'), t('b', 'down')], '5321234567')).toBe(true);
    // One that may not dial the number does not count either way.
    expect(noneUpFor([t('mobile', 'down', ['tr-mobile']), t('intl', 'up', ['e164'])], '5321234567')).toBe(true);
  });
  it('one is up, or never probed (none): it is tried', () => {
    expect(noneUpFor([t('a', 'down'), t('b', 'up')], '5321234567')).toBe(false);
    expect(noneUpFor([t('a', 'down'), t('b', 'none')], '5321234567')).toBe(false);
  });
  it('no trunk may dial it at all: a matter of configuration, not a trunk down', () => {
    expect(noneUpFor([t('intl', 'down', ['e164'])], '5321234567')).toBe(false);
    expect(noneUpFor([], '5321234567')).toBe(false);
  });
});
