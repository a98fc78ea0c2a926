import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '..';

// docs/https.md "HTTPS": the http.tls* keys, plain_listen and hsts; combinations that cannot mean
// anything stop the start with one line naming the key to change.
const load = (env: Record<string, string>) => loadConfig({ env, defaultPath: null });

describe('http TLS keys', () => {
  it('default to plain HTTP with nothing beside it', () => {
    expect(load({}).http).toMatchObject({ tls: 'off', tls_cert_file: '', tls_key_file: '', plain_listen: '', hsts: false });
  });

  it.each([
    [{ VOICE_ALERT_HTTP_TLS: 'self-signed' }],
    [{ VOICE_ALERT_HTTP_TLS_CERT_FILE: '/etc/voice-alert/tls/cert.pem', VOICE_ALERT_HTTP_TLS_KEY_FILE: '/etc/voice-alert/tls/key.pem' }],
    [{ VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_LISTEN: '0.0.0.0:8443', VOICE_ALERT_HTTP_PLAIN_LISTEN: '0.0.0.0:8080', VOICE_ALERT_HTTP_HSTS: 'true' }],
    // Port 0 twice: each listener gets a port of its own.
    [{ VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_LISTEN: '127.0.0.1:0', VOICE_ALERT_HTTP_PLAIN_LISTEN: '127.0.0.1:0' }],
    // The same port on two different addresses of the machine.
    [{ VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_LISTEN: '192.0.2.10:8443', VOICE_ALERT_HTTP_PLAIN_LISTEN: '127.0.0.1:8443' }],
  ])('accepts %j', (env) => {
    expect(() => load(env)).not.toThrow();
  });

  it.each([
    [
      { VOICE_ALERT_HTTP_TLS_CERT_FILE: '/etc/voice-alert/tls/cert.pem' },
      'invalid configuration: http.tls_cert_file = "/etc/voice-alert/tls/cert.pem": needs http.tls_key_file too: the private key of this certificate (PEM)',
    ],
    [
      { VOICE_ALERT_HTTP_TLS_KEY_FILE: '/etc/voice-alert/tls/key.pem' },
      'invalid configuration: http.tls_key_file = "/etc/voice-alert/tls/key.pem": needs http.tls_cert_file too: the certificate of this key (PEM)',
    ],
    [
      { VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_TLS_CERT_FILE: '/c.pem', VOICE_ALERT_HTTP_TLS_KEY_FILE: '/k.pem' },
      'invalid configuration: http.tls = "self-signed": either your own certificate (http.tls_cert_file and http.tls_key_file) or a self-signed one, not both',
    ],
    [
      { VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_TLS_KEY_FILE: '/k.pem' },
      'invalid configuration: http.tls = "self-signed": either your own certificate',
    ],
    [{ VOICE_ALERT_HTTP_TLS: 'on' }, 'invalid configuration: http.tls = "on": '],
    [
      { VOICE_ALERT_HTTP_PLAIN_LISTEN: '0.0.0.0:8081' },
      'invalid configuration: http.plain_listen = "0.0.0.0:8081": only beside HTTPS: set http.tls_cert_file and http.tls_key_file, or http.tls = "self-signed"',
    ],
    [
      { VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_LISTEN: '0.0.0.0:8443', VOICE_ALERT_HTTP_PLAIN_LISTEN: '127.0.0.1:8443' },
      'invalid configuration: http.plain_listen = "127.0.0.1:8443": takes the port of http.listen (0.0.0.0:8443): give it a port of its own',
    ],
    [
      { VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_LISTEN: '[::]:8443', VOICE_ALERT_HTTP_PLAIN_LISTEN: '[::]:8443' },
      'invalid configuration: http.plain_listen = "[::]:8443": takes the port of http.listen',
    ],
    [{ VOICE_ALERT_HTTP_TLS: 'self-signed', VOICE_ALERT_HTTP_PLAIN_LISTEN: 'nowhere' }, 'invalid configuration: http.plain_listen = "nowhere": expected host:port'],
    [
      { VOICE_ALERT_HTTP_HSTS: 'true' },
      'invalid configuration: http.hsts = true: needs HTTPS on http.listen (behind an HTTPS reverse proxy, let the proxy send Strict-Transport-Security)',
    ],
  ])('refuses %j with one line naming the key', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });
});
