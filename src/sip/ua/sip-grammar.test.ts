import { describe, expect, it } from 'vitest';
import { Grammar } from 'sip.js/lib/grammar/grammar.js';

// sip.js 0.21.2's generated parser decoded its whole bytecode (236 tables) at every call,
// ~200–370 µs of the event loop for each header it parsed, beside the intake (BENCHMARKS.md
// "The lookups' change marker read per batch; SIP's parser decoded once"). patches/ (applied
// by patch-package after `npm ci`) decodes it once per process.

const split = String.prototype.split;

/** How many times the parser splits a string into its characters (its bytecode decoding) during `fn`. */
function charSplits(fn: () => void): number {
  let n = 0;
  String.prototype.split = function (this: string, separator: unknown, limit?: number) {
    if (separator === '') n++;
    return split.call(this, separator as Parameters<typeof split>[0], limit);
  } as typeof split;
  try {
    fn();
  } finally {
    String.prototype.split = split;
  }
  return n;
}

describe('sip.js grammar (patched)', () => {
  it('decodes its bytecode once, not at every parse', () => {
    Grammar.URIParse('sip:warm@127.0.0.1'); // the first parse in this process may decode it
    const splits = charSplits(() => {
      for (let i = 0; i < 10; i++) Grammar.parse(`"Desk ${i}" <sip:desk${i}@127.0.0.1:5060>;tag=t${i}`, 'Contact');
    });
    expect(splits).toBe(0);
  });

  it('parses each input on its own with the shared tables', () => {
    const a = Grammar.URIParse('sip:5321234567@10.0.0.1:5062;transport=tcp');
    const b = Grammar.URIParse('sips:ops@pbx.example.org');
    expect(a && [a.user, a.host, a.port, a.getParam('transport')]).toEqual(['5321234567', '10.0.0.1', 5062, 'tcp']);
    expect(b && [b.scheme, b.user, b.host, b.port]).toEqual(['sips', 'ops', 'pbx.example.org', undefined]);
    const via = Grammar.parse('SIP/2.0/UDP 127.0.0.1:5070;branch=z9hG4bK-1;rport', 'Via') as { host: string; port: number; branch: string };
    expect([via.host, via.port, via.branch]).toEqual(['127.0.0.1', 5070, 'z9hG4bK-1']);
    expect(Grammar.parse('not a uri at all <', 'Contact')).toBe(-1);
  });
});
