import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSipp } from '../../test/helpers/sipp';
import { IllegalTransitionError, type CallOutcome } from '../call-model';
import type { AttemptEvent } from './ua/attempt';
import { dialTest, recorder, stoppedAfterEach, testPhone } from '../../test/helpers/test-phone';

/**
 * ua/place-call.ts: an illegal edge of the attempt (ua/attempt.ts) is a bug, never carried on
 * from. Whether it comes from a sip.js callback (a 180's onProgress) or from the attempt's own
 * step (the media coming up), the call is given up: CANCEL before the answer, BYE after it,
 * the error logged, and dial() rejects with it (the dialer ends the call `failed`).
 * The bug is made by the attempt refusing one event, as a wrong ATTEMPT_REACTIONS would.
 */
const refused = vi.hoisted(() => ({ event: null as string | null }));
vi.mock('./ua/attempt', async (original) => {
  const real = await original<typeof import('./ua/attempt')>();
  return {
    ...real,
    createAttempt: (log: Parameters<typeof real.createAttempt>[0]) => {
      const a = real.createAttempt(log);
      return {
        get state() {
          return a.state;
        },
        in: a.in,
        on(event: AttemptEvent, why: string) {
          if (event === refused.event) throw new IllegalTransitionError('attempt', a.state, event);
          return a.on(event, why);
        },
      };
    },
  };
});

const { peers, phones } = stoppedAfterEach();
afterEach(() => {
  refused.event = null;
});

async function dialRefusing(event: AttemptEvent, scenario: string) {
  refused.event = event;
  const sipp = await startSipp({ scenario, keys: { ring_ms: 10 } });
  peers.push(sipp);
  const lines: Record<string, any>[] = [];
  const log = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
  const t = await testPhone(sipp.port, {}, log);
  phones.push(t.phone);
  const { progress } = recorder();
  const settled: PromiseSettledResult<CallOutcome> = await dialTest(t.phone, progress).then(
    (value) => ({ status: 'fulfilled', value }),
    (reason) => ({ status: 'rejected', reason }),
  );
  return { sipp, lines, settled, t };
}

describe('an illegal attempt edge gives the call up', () => {
  it('inside a sip.js callback (the 180): CANCEL is sent, dial() rejects with the error, and it is logged', async () => {
    const { sipp, lines, settled, t } = await dialRefusing('progress', 'no-answer.xml');
    expect(settled.status).toBe('rejected');
    expect((settled as PromiseRejectedResult).reason).toBeInstanceOf(IllegalTransitionError);
    expect(lines.find((l) => l.msg === 'illegal attempt transition: giving the call up')).toMatchObject({ level: 50, state: 'inviting' });
    // no-answer.xml waits for our CANCEL, answers it and the INVITE's 487: it passes only if CANCEL came.
    expect(await sipp.exited).toBe(0);
    expect(t.sent('CANCEL')).toHaveLength(1);
    expect(t.sent('BYE')).toHaveLength(0);
  });

  it("in the attempt's own step (media up after the answer): BYE is sent, dial() rejects with the error", async () => {
    const { sipp, lines, settled, t } = await dialRefusing('media_up', 'answer.xml');
    expect(settled.status).toBe('rejected');
    expect((settled as PromiseRejectedResult).reason).toMatchObject({ machine: 'attempt', from: 'answered', to: 'media_up' });
    expect(lines.find((l) => l.msg === 'illegal attempt transition: giving the call up')).toMatchObject({ state: 'answered' });
    expect(await sipp.exited).toBe(0); // answer.xml waits for our BYE
    expect(t.sent('BYE')).toHaveLength(1);
    expect(t.sent('CANCEL')).toHaveLength(0);
  });
});
