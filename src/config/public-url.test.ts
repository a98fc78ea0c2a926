import { describe, expect, it } from 'vitest';
import { publicBaseUrl } from './public-url';

const config = (o: { public_url?: string; listen?: string; tls?: string; cert?: string } = {}) => ({
  panel: { public_url: o.public_url ?? '' },
  http: { listen: o.listen ?? '0.0.0.0:8080', tls: o.tls ?? 'off', tls_cert_file: o.cert ?? '' },
});

describe('publicBaseUrl (docs/operations.md "Addresses the appliance prints")', () => {
  it('panel.public_url wins over everything, without a trailing slash', () => {
    expect(publicBaseUrl(config({ public_url: 'https://alerts.example.com/va/' }), 'http://127.0.0.1:18080')).toBe('https://alerts.example.com/va');
  });

  it('else the address actually listened on, a wildcard shown as loopback', () => {
    expect(publicBaseUrl(config(), 'http://0.0.0.0:18080')).toBe('http://127.0.0.1:18080');
    expect(publicBaseUrl(config(), 'https://[::]:8443')).toBe('https://[::1]:8443');
    expect(publicBaseUrl(config(), 'http://192.0.2.7:8080')).toBe('http://192.0.2.7:8080');
  });

  it('else http.listen, https when the appliance serves TLS itself', () => {
    expect(publicBaseUrl(config())).toBe('http://127.0.0.1:8080');
    expect(publicBaseUrl(config({ listen: '[::]:8443', tls: 'self-signed' }))).toBe('https://[::1]:8443');
    expect(publicBaseUrl(config({ listen: '10.0.0.5:8443', cert: '/etc/voice-alert/tls/cert.pem' }), null)).toBe('https://10.0.0.5:8443');
  });
});
