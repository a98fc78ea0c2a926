import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createAttempt } from './attempt';
import { edgeGuard } from './edge-guard';
import { createInboundCallMachine } from './inbound-call';

const quiet = pino({ level: 'silent' });

describe('the edge guard (callbacks from sip.js, the stream, timers and signals)', () => {
  it("runs the callback; an attempt's illegal edge inside it rejects `failed` instead of throwing into the caller", async () => {
    const { guarded, failed } = edgeGuard();
    const a = createAttempt(quiet);
    a.on('refused', '486');
    const seen: string[] = [];
    guarded((s: string) => void seen.push(s))('180');
    expect(seen).toEqual(['180']);
    expect(() => guarded(() => void a.on('accepted', 'a late 200'))()).not.toThrow();
    await expect(failed).rejects.toMatchObject({ machine: 'attempt', from: 'ended', to: 'accepted' });
  });

  it("the inbound call's too", async () => {
    const { guarded, failed } = edgeGuard();
    const m = createInboundCallMachine(quiet);
    expect(() => guarded(() => void m.on('key', '5'))()).not.toThrow(); // no key before our 200
    await expect(failed).rejects.toMatchObject({ machine: 'inbound call', from: 'offered', to: 'key' });
  });

  it('other errors are thrown as they were', () => {
    const { guarded, failed } = edgeGuard();
    failed.catch(() => undefined);
    expect(() =>
      guarded(() => {
        throw new TypeError('not an edge');
      })(),
    ).toThrow(TypeError);
  });
});
