import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, loadConfig } from '.';
import { NOT_KEY_VARIABLES } from './env-overrides';

const file = (text: string) => {
  const p = join(mkdtempSync(join(tmpdir(), 'va-cfg-')), 'config.toml');
  writeFileSync(p, text);
  return p;
};

const messageOf = (load: () => unknown): string => {
  try {
    load();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('has the contract defaults with no file', () => {
    const c = loadConfig({ env: {}, defaultPath: null });
    expect(c.http).toMatchObject({ listen: '0.0.0.0:8080', rate_limit_per_minute: 60, trust_proxy: false });
    expect(c.store.path).toBe('./data/voice-alert.db');
    expect(c.credit.timezone).toBe('Europe/Istanbul');
  });

  it('reads the file, then environment overrides, then flags', () => {
    const path = file('[http]\nlisten = "127.0.0.1:9000"\nrate_limit_per_minute = 10\n[credit]\ntimezone = "UTC"\n');
    const env = { VOICE_ALERT_HTTP_RATE_LIMIT_PER_MINUTE: '0', VOICE_ALERT_HTTP_TRUST_PROXY: 'true' };
    const c = loadConfig({ path, env, flags: { 'http.listen': '[::1]:9001' } });
    expect(c.http).toMatchObject({ listen: '[::1]:9001', rate_limit_per_minute: 0, trust_proxy: true });
    expect(c.credit.timezone).toBe('UTC');
  });

  it('takes the path from VOICE_ALERT_CONFIG', () => {
    const path = file('[store]\npath = "/tmp/x.db"\n');
    expect(loadConfig({ env: { VOICE_ALERT_CONFIG: path } }).store.path).toBe('/tmp/x.db');
  });

  it('names env variables after the key', () => {
    expect(envName('http.rate_limit_per_minute')).toBe('VOICE_ALERT_HTTP_RATE_LIMIT_PER_MINUTE');
  });

  it.each([
    [{ VOICE_ALERT_HTTP_LISTEN: 'nonsense' }, /^invalid configuration: http\.listen = "nonsense": expected host:port/],
    [{ VOICE_ALERT_HTTP_RATE_LIMIT_PER_MINUTE: 'many' }, /^invalid configuration: http\.rate_limit_per_minute = "many": /],
    [{ VOICE_ALERT_CREDIT_TIMEZONE: 'Mars/Base' }, /^invalid configuration: credit\.timezone = "Mars\/Base": not a known IANA time zone/],
  ])('refuses %j with one line naming key, value and reason', (env, message) => {
    expect(() => loadConfig({ env, defaultPath: null })).toThrow(ConfigError);
    expect(() => loadConfig({ env, defaultPath: null })).toThrow(message);
  });

  it('refuses unknown keys and broken TOML, naming the file and line (and column for TOML)', () => {
    const path = file('[http]\nlisen = "x"\n');
    expect(messageOf(() => loadConfig({ path, env: {} }))).toBe(`invalid configuration: ${path}:2: http.lisen: unknown key`);
    const broken = file('[calls]\nring_timeout_s = 30\n[http\n');
    expect(messageOf(() => loadConfig({ path: broken, env: {} }))).toMatch(new RegExp(`^invalid configuration: ${broken}:3:\\d+: not valid TOML: `));
  });

  it("names every refused key at once, on one line, in the file's order, each with file:line; a variable's value has no line", () => {
    const path = file(
      [
        '# comment',
        '[calls]',
        'ring_timeout_s = "x"',
        '[http]',
        'listen = "nope"',
        'rate_limit_per_minute = -5',
        'lisen = 1',
        'note = """',
        'listen = "inside a string"',
        '"""',
        '[[sip.trunks]]',
        'name = "a"',
        'server = "127.0.0.1:5060"',
        '[[sip.trunks]]',
        'name = "b"',
        'server = "127.0.0.1:5061"',
        'transport = "carrier-pigeon"',
      ].join('\n'),
    );
    const message = messageOf(() => loadConfig({ path, env: { VOICE_ALERT_HTTP_LISTEN: 'also-nope' } }));
    expect(message.split('\n')).toHaveLength(1);
    expect(message.split('; ')).toEqual([
      `invalid configuration: ${path}:3: calls.ring_timeout_s = "x": Invalid input: expected number, received string`,
      `${path}:6: http.rate_limit_per_minute = -5: Too small: expected number to be >=0`,
      `${path}:7: http.lisen: unknown key`,
      `${path}:8: http.note: unknown key`,
      `${path}:17: sip.trunks.1.transport = "carrier-pigeon": Invalid option: expected one of "udp"|"tcp"|"tls"`,
      'http.listen = "also-nope": expected host:port, e.g. 0.0.0.0:8080',
    ]);
  });

  it('refuses a VOICE_ALERT_* variable that names no key with the message of an unknown key in the file', () => {
    const fromFile = messageOf(() => loadConfig({ path: file('[http]\nlistn = "127.0.0.1:9000"\n'), env: {} }));
    const fromEnv = messageOf(() => loadConfig({ env: { VOICE_ALERT_HTTP_LISTN: '127.0.0.1:9000' }, defaultPath: null }));
    expect(fromFile).toMatch(/^invalid configuration: \S+config\.toml:2: http\.listn: unknown key$/);
    expect(fromEnv).toBe('invalid configuration: VOICE_ALERT_HTTP_LISTN: unknown key');
    // Beside a good file and correct variables, and a misspelled VOICE_ALERT_CONFIG too.
    const path = file('[http]\nlisten = "127.0.0.1:9000"\n');
    expect(messageOf(() => loadConfig({ path, env: { VOICE_ALERT_HTTP_TRUST_PROXY: 'true', VOICE_ALERT_CREDIT_TIMEZNE: 'UTC' } }))).toBe(
      'invalid configuration: VOICE_ALERT_CREDIT_TIMEZNE: unknown key',
    );
    expect(messageOf(() => loadConfig({ env: { VOICE_ALERT_CONFG: path }, defaultPath: null }))).toBe('invalid configuration: VOICE_ALERT_CONFG: unknown key');
    // A section alone is no key.
    expect(messageOf(() => loadConfig({ env: { VOICE_ALERT_HTTP: 'x' }, defaultPath: null }))).toBe('invalid configuration: VOICE_ALERT_HTTP: unknown key');
  });

  it('takes a correctly named variable, and leaves names outside VOICE_ALERT_* alone', () => {
    const env = { VOICE_ALERT_HTTP_LISTEN: '127.0.0.1:9000', VOICE_ALERT_TTS_PIPER_MODEL: '/m.onnx', VOICE_ALERTS_X: '1', voice_alert_http_listn: '1', HOME: '/root' };
    const c = loadConfig({ env, defaultPath: null });
    expect(c.http.listen).toBe('127.0.0.1:9000');
    expect(c.tts.piper.model).toBe('/m.onnx');
  });

  it('accepts the variables that are not keys by design: VOICE_ALERT_CONFIG, the tests\' and scripts\' own, the recipes\'', () => {
    const path = file('[store]\npath = "/tmp/x.db"\n');
    expect(loadConfig({ env: { VOICE_ALERT_CONFIG: path } }).store.path).toBe('/tmp/x.db');
    expect([...NOT_KEY_VARIABLES].sort()).toEqual([
      'VOICE_ALERT_BENCH_QUOTA',
      'VOICE_ALERT_CHROMIUM',
      'VOICE_ALERT_CONFIG',
      'VOICE_ALERT_KEY',
      'VOICE_ALERT_TEST_PG',
      'VOICE_ALERT_TEST_STORE',
      'VOICE_ALERT_URL',
    ]);
    const all = Object.fromEntries([...NOT_KEY_VARIABLES].map((name) => [name, name === 'VOICE_ALERT_CONFIG' ? path : 'x']));
    expect(loadConfig({ env: all }).store.path).toBe('/tmp/x.db');
    // A renamed key's old name is still a key (below).
    expect(() => loadConfig({ env: { VOICE_ALERT_SIP_CALL_LEASE_S: '9' }, defaultPath: null })).not.toThrow();
  });

  it('reads the renamed sip.call_lease_s as calls.lease_s, with one deprecation warning', () => {
    const warnings: string[] = [];
    const onDeprecated = (m: string) => warnings.push(m);
    expect(loadConfig({ path: file('[sip]\ncall_lease_s = 7\n'), env: {}, onDeprecated }).calls.lease_s).toBe(7);
    expect(warnings).toEqual(['configuration key sip.call_lease_s is deprecated: use calls.lease_s (VOICE_ALERT_CALLS_LEASE_S)']);
    expect(loadConfig({ env: { VOICE_ALERT_SIP_CALL_LEASE_S: '9' }, defaultPath: null, onDeprecated }).calls.lease_s).toBe(9);
    // The new name wins when both are given.
    expect(loadConfig({ path: file('[sip]\ncall_lease_s = 7\n[calls]\nlease_s = 11\n'), env: {}, onDeprecated }).calls.lease_s).toBe(11);
    expect(warnings).toHaveLength(3);
    expect(loadConfig({ env: {}, defaultPath: null, onDeprecated }).calls.lease_s).toBe(30);
    expect(warnings).toHaveLength(3);
  });
});
