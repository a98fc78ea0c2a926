import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../log';
import { retryAfter, firstInvite } from './invite-extensions';
import { createSessionTimer, parseSessionExpires, type RefreshResponse } from './session-timer';

/** A timer whose refreshes are answered from a script; the clock is vitest's. */
function scripted(answers: RefreshResponse[]) {
  const sent: { at: number; headers: string[] }[] = [];
  const lost: string[] = [];
  const timer = createSessionTimer({
    minSeS: 90,
    log: silentLogger(),
    refresh: async (headers) => {
      sent.push({ at: Date.now(), headers });
      return answers.shift() ?? { status: 200 };
    },
    lost: (why) => lost.push(why),
  });
  return { timer, sent, lost };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('session timer (RFC 4028)', () => {
  it('reads Session-Expires with and without a refresher', () => {
    expect(parseSessionExpires('90;refresher=uac')).toEqual({ seconds: 90, refresher: 'uac' });
    expect(parseSessionExpires(' 1800 ; refresher=UAS')).toEqual({ seconds: 1800, refresher: 'uas' });
    expect(parseSessionExpires('600')).toEqual({ seconds: 600, refresher: null });
    expect(parseSessionExpires(undefined)).toBeNull();
    expect(parseSessionExpires('soon')).toBeNull();
  });

  it('refreshes a third of the way in when we are the refresher, again from each 2xx, and never when the PBX is', async () => {
    const { timer, sent } = scripted([{ status: 200, sessionExpires: '120;refresher=uac' }, { status: 200, sessionExpires: '120;refresher=uas' }]);
    timer.negotiated({ seconds: 90, refresher: 'uac' }, 'uac');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ at: 30_000, headers: ['Session-Expires: 90;refresher=uac', 'Min-SE: 90'] }]);
    await vi.advanceTimersByTimeAsync(40_000); // the 2xx said 120 s: next one 40 s later
    expect(sent.map((s) => s.at)).toEqual([30_000, 70_000]);
    await vi.advanceTimersByTimeAsync(600_000); // that 2xx made the PBX the refresher
    expect(sent).toHaveLength(2);
    timer.stop();
  });

  it('a PBX refresh naming us (refresher=uas in its request) makes us the refresher', async () => {
    const { timer, sent } = scripted([]);
    timer.negotiated({ seconds: 90, refresher: 'uas' }, 'uas');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent).toHaveLength(1);
    timer.stop();
  });

  it('after 422 sends again at once with the larger Min-SE; after 491 waits 2.1–4 s; a 481 means the session is lost', async () => {
    const { timer, sent, lost } = scripted([{ status: 422, minSe: '1800' }, { status: 491 }, { status: 481 }]);
    timer.negotiated({ seconds: 90, refresher: 'uac' }, 'uac');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent.map((s) => s.headers)).toEqual([
      ['Session-Expires: 90;refresher=uac', 'Min-SE: 90'],
      ['Session-Expires: 1800;refresher=uac', 'Min-SE: 1800'],
    ]);
    expect(lost).toEqual([]);
    await vi.advanceTimersByTimeAsync(2099);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1901);
    expect(sent).toHaveLength(3);
    expect(lost).toEqual(['session refresh answered 481']);
    timer.stop();
  });

  it('stop() ends it: no refresh after the call', async () => {
    const { timer, sent } = scripted([]);
    timer.negotiated({ seconds: 90, refresher: 'uac' }, 'uac');
    timer.stop();
    await vi.advanceTimersByTimeAsync(100_000);
    expect(sent).toHaveLength(0);
  });
});

describe('INVITE again after 421/422', () => {
  const x = firstInvite(1800, 90);
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it('requires what a 421 requires when we support all of it, once', () => {
    const again = retryAfter(421, headers({ require: '100rel' }), x)!;
    expect(again.require).toEqual(['100rel']);
    expect(retryAfter(421, headers({ require: '100rel' }), again)).toBeNull();
  });
  it('gives up on a 421 requiring an extension we do not have', () => {
    expect(retryAfter(421, headers({ require: '100rel, precondition' }), x)).toBeNull();
    expect(retryAfter(421, headers({}), x)).toBeNull();
  });
  it('raises Session-Expires and Min-SE to a 422 Min-SE, once; other statuses stand', () => {
    const again = retryAfter(422, headers({ 'min-se': '3600' }), x)!;
    expect([again.sessionExpiresS, again.minSeS]).toEqual([3600, 3600]);
    expect(retryAfter(422, headers({ 'min-se': '7200' }), again)).toBeNull();
    expect(retryAfter(486, headers({}), x)).toBeNull();
  });
});
