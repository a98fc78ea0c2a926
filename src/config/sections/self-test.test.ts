import { describe, expect, it } from 'vitest';
import { configErrorOf, loadToml } from '../../../test/helpers/config-toml';


const TRUNKS = `[sip]\n[[sip.trunks]]\nname = "pbx"\nserver = "127.0.0.1:5060"\n[[sip.trunks]]\nname = "carrier"\nserver = "127.0.0.1:5070"\n`;

describe('[self_test] (docs/telephony.md "Voice-path self-test")', () => {
  it('defaults: off (no number), hourly, each trunk, 5 s, answer', () => {
    expect(loadToml('').self_test).toEqual({ number: '', interval_s: 3600, trunk: '', duration_s: 5, expect: 'answer' });
  });

  it('takes a PBX service code and one of the trunks', () => {
    expect(loadToml(`${TRUNKS}[self_test]\nnumber = "*43"\ntrunk = "carrier"\nexpect = "echo"\nduration_s = 2\ninterval_s = 0\n`).self_test).toEqual({
      number: '*43',
      interval_s: 0,
      trunk: 'carrier',
      duration_s: 2,
      expect: 'echo',
    });
  });

  it('refuses a trunk that is not configured, a number that cannot be dialled, and an unknown expect', () => {
    expect(configErrorOf(`${TRUNKS}[self_test]\ntrunk = "backup"\n`)).toMatch(/self_test\.trunk.*no trunk named backup \(trunks: pbx, carrier\)/s);
    expect(configErrorOf(`[self_test]\nnumber = "echo test"\n`)).toMatch(/self_test\.number/);
    expect(configErrorOf(`[self_test]\nexpect = "loud"\n`)).toMatch(/self_test\.expect/);
  });
});
