import { describe, expect, it } from 'vitest';
import { manualClock } from '../../test/helpers/memory-store';
import { createLogger } from '../log';
import { createRefusalLog, type Refusal } from './refusal-log';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', { write: (s: string) => lines.push(JSON.parse(s)) });
  return { log, lines };
}

const refusal = (over: Partial<Refusal> = {}): Refusal => ({
  requestId: 'r',
  endpoint: '/webhook/receive',
  address: '203.0.113.9',
  status: 403,
  code: 'invalid_webhook_key',
  accountId: null,
  ...over,
});

describe('refused alert requests in the log', () => {
  it('one line per refusal when the account is known, with its reason', () => {
    const { log, lines } = capture();
    const r = createRefusalLog(log, manualClock());
    for (let i = 0; i < 3; i++) r.add(refusal({ accountId: 'acc_1', status: 403, code: 'invalid_signature', reason: 'replayed' }));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ msg: 'alert refused', status: 403, code: 'invalid_signature', accountId: 'acc_1', reason: 'replayed' });
  });

  it('anonymous refusals: once per address, endpoint, status and minute', () => {
    const { log, lines } = capture();
    const clock = manualClock('2026-11-15T12:00:00Z');
    const r = createRefusalLog(log, clock);
    for (let i = 0; i < 1000; i++) r.add(refusal());
    r.add(refusal({ status: 429, code: 'rate_limited' }));
    r.add(refusal({ address: '198.51.100.1' }));
    expect(lines.map((l) => [l.address, l.status])).toEqual([
      ['203.0.113.9', 403],
      ['203.0.113.9', 429],
      ['198.51.100.1', 403],
    ]);
    clock.advance(60_000);
    r.add(refusal());
    expect(lines).toHaveLength(4);
  });
});
