import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, envName, loadConfig } from '.';

const file = (text: string) => {
  const p = join(mkdtempSync(join(tmpdir(), 'va-cfg-')), 'config.toml');
  writeFileSync(p, text);
  return p;
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

  it('refuses unknown keys and broken TOML', () => {
    expect(() => loadConfig({ path: file('[http]\nlisen = "x"\n'), env: {} })).toThrow('invalid configuration: http.lisen: unknown key');
    expect(() => loadConfig({ path: file('[http\n'), env: {} })).toThrow(/is not valid TOML/);
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
