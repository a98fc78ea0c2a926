import { describe, expect, it } from 'vitest';
import { configErrorOf, loadToml } from '../../../test/helpers/config-toml';
import { sipTrunks, trunkConfigured } from './sip';


describe('[[sip.trunks]] (docs/telephony.md "SIP trunks: several, in order")', () => {
  it('a plain [sip] with server is one trunk named default, as before', () => {
    const c = loadToml('[sip]\nserver = "192.0.2.10:5060"\nusername = "va"\n');
    expect(trunkConfigured(c.sip)).toBe(true);
    const [t, ...rest] = sipTrunks(c.sip);
    expect(rest).toEqual([]);
    expect(t).toMatchObject({ name: 'default', server: '192.0.2.10:5060', username: 'va', numbers: null, local_port: 5060 });
    expect(loadToml('[sip]\nserver = "192.0.2.10:5060"\nname = "pbx"\n').sip.trunks).toEqual([]);
    expect(sipTrunks(loadToml('[sip]\nserver = "192.0.2.10:5060"\nname = "pbx"\n').sip)[0]!.name).toBe('pbx');
  });

  it('a server named without a port is 5061 for SIP over TLS, 5060 otherwise; a port given stays', () => {
    const servers = (toml: string) => sipTrunks(loadToml(toml).sip).map((t) => t.server);
    expect(servers('[sip]\nserver = "pbx.example"\ntransport = "tls"\n')).toEqual(['pbx.example:5061']);
    expect(servers('[sip]\nserver = "pbx.example"\n')).toEqual(['pbx.example:5060']);
    expect(servers('[sip]\nserver = "pbx.example:5071"\ntransport = "tls"\n')).toEqual(['pbx.example:5071']);
    expect(
      servers('[sip]\ntransport = "tls"\nlocal_address = "::"\n[[sip.trunks]]\nname = "a"\nserver = "[2001:db8::1]"\n[[sip.trunks]]\nname = "b"\nserver = "pbx.example"\ntransport = "udp"\n'),
    ).toEqual(['[2001:db8::1]:5061', 'pbx.example:5060']);
    expect(configErrorOf('[sip]\nserver = "not an address:x"\n')).toMatch(/sip\.server.*expected host or host:port/);
    expect(configErrorOf('[sip]\nserver = "no port here"\n')).toMatch(/sip\.server.*expected host or host:port/);
  });

  it('no server and no trunks: nothing configured', () => {
    const c = loadToml('');
    expect(trunkConfigured(c.sip)).toBe(false);
    expect(sipTrunks(c.sip)).toEqual([]);
  });

  it('trunks in order, each over [sip]: keys left out are taken from [sip]; trunk i binds local_port + i', () => {
    const c = loadToml(`
[sip]
username = "shared"
password = "pw"
local_port = 5070
dial_prefix = "0"

[[sip.trunks]]
name = "pbx"
server = "192.0.2.10:5060"
register = true

[[sip.trunks]]
name = "carrier"
server = "198.51.100.7:5061"
transport = "tcp"
username = "acct42"
dial_prefix = ""
pai = "+902120000000"
numbers = ["e164", "tr-mobile"]
`);
    const [pbx, carrier] = sipTrunks(c.sip);
    expect(pbx).toMatchObject({ name: 'pbx', server: '192.0.2.10:5060', username: 'shared', password: 'pw', register: true, transport: 'udp', dial_prefix: '0', local_port: 5070, numbers: null });
    expect(carrier).toMatchObject({
      name: 'carrier',
      server: '198.51.100.7:5061',
      transport: 'tcp',
      username: 'acct42',
      password: 'pw',
      register: false,
      dial_prefix: '',
      pai: '+902120000000',
      local_port: 5071,
      numbers: ['e164', 'tr-mobile'],
    });
    expect(trunkConfigured(c.sip)).toBe(true);
  });

  it('invite_timeout_s: 0 (Timer B alone) unless set; per trunk over [sip], 0 there turning it off again', () => {
    expect(sipTrunks(loadToml('[sip]\nserver = "192.0.2.10:5060"\n').sip)[0]!.invite_timeout_s).toBe(0);
    const c = loadToml(`
[sip]
invite_timeout_s = 4
[[sip.trunks]]
name = "pbx"
server = "192.0.2.10:5060"
[[sip.trunks]]
name = "carrier"
server = "198.51.100.7:5060"
invite_timeout_s = 2
[[sip.trunks]]
name = "backup"
server = "198.51.100.8:5060"
invite_timeout_s = 0
`);
    expect(sipTrunks(c.sip).map((t) => [t.name, t.invite_timeout_s])).toEqual([
      ['pbx', 4],
      ['carrier', 2],
      ['backup', 0],
    ]);
    expect(configErrorOf('[sip]\ninvite_timeout_s = -1\n')).toMatch(/sip\.invite_timeout_s/);
    expect(configErrorOf('[[sip.trunks]]\nname = "a"\nserver = "192.0.2.10"\ninvite_timeout_s = 1.5\n')).toMatch(/sip\.trunks.*invite_timeout_s|invite_timeout_s/);
  });

  it('local_port 0: every trunk lets the OS pick', () => {
    const c = loadToml('[sip]\nlocal_port = 0\n[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\n[[sip.trunks]]\nname = "b"\nserver = "127.0.0.1:5062"\n');
    expect(sipTrunks(c.sip).map((t) => t.local_port)).toEqual([0, 0]);
  });

  it.each([
    ['a duplicate name', '[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\n[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5062"\n', /trunk name "a" is used twice/],
    ['a trunk without a name', '[[sip.trunks]]\nserver = "127.0.0.1:5060"\n', /sip\.trunks\.0\.name/],
    ['a trunk without a server', '[[sip.trunks]]\nname = "a"\n', /sip\.trunks\.0\.server/],
    ['a bad server', '[[sip.trunks]]\nname = "a"\nserver = "pbx:99999"\n', /expected host or host:port/],
    ['a bad name', '[[sip.trunks]]\nname = "a b"\nserver = "127.0.0.1:5060"\n', /sip\.trunks\.0\.name.*letters, digits/],
    ['an unknown number form', '[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\nnumbers = ["mars"]\n', /sip\.trunks\.0\.numbers/],
    ['an empty numbers list', '[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\nnumbers = []\n', /at least one number form/],
    ['a key that is not a trunk key', '[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\nt1_ms = 100\n', /sip\.trunks\.0\.t1_ms: unknown key/],
    ['[sip] server beside trunks', '[sip]\nserver = "127.0.0.1:5064"\n[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\n', /sip\.server and \[\[sip\.trunks\]\] are both set/],
    ['an accepted number form no trunk may dial', '[numbers]\naccept = ["tr-mobile", "extension"]\n[[sip.trunks]]\nname = "a"\nserver = "127.0.0.1:5060"\nnumbers = ["tr-mobile"]\n', /numbers\.accept takes extension numbers but no \[\[sip\.trunks\]\] may dial them/],
    ['an IPv6 trunk on an IPv4 bind', '[sip]\nlocal_address = "127.0.0.1"\n[[sip.trunks]]\nname = "a"\nserver = "[::1]:5060"\n', /sip\.trunks\[0\]\.server is IPv6/],
  ])('refuses %s with a clear line', (_what, toml, message) => {
    expect(configErrorOf(toml)).toMatch(message);
  });
});
