import { describe, expect, it } from 'vitest';
import { httpsRedirect, isPanelPath } from './https-redirect';

describe('http.plain_listen: the panel redirects to HTTPS', () => {
  it('the panel is /panel and everything under it, nothing else', () => {
    for (const p of ['/panel', '/panel/', '/panel/login', '/panel/a/acc_1/calls']) expect(isPanelPath(p)).toBe(true);
    for (const p of ['/', '/panelx', '/webhook/receive', '/api/call', '/healthz']) expect(isPanelPath(p)).toBe(false);
  });

  it('307 to the same host, path and query on the HTTPS port', () => {
    const r = httpsRedirect(new Request('http://192.0.2.10:8080/panel/login?next=%2Fpanel'), 8443, '');
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe('https://192.0.2.10:8443/panel/login?next=%2Fpanel');
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('no port on 443; an IPv6 host stays bracketed', () => {
    expect(httpsRedirect(new Request('http://alerts.lan/panel'), 443, '').headers.get('location')).toBe('https://alerts.lan/panel');
    expect(httpsRedirect(new Request('http://[2001:db8::1]:8080/panel'), 8443, '').headers.get('location')).toBe('https://[2001:db8::1]:8443/panel');
  });

  it('panel.public_url when it is https; an http one is not where HTTPS is', () => {
    expect(httpsRedirect(new Request('http://10.0.0.5:8080/panel/x?y=1'), 8443, 'https://alerts.example.com/').headers.get('location')).toBe(
      'https://alerts.example.com/panel/x?y=1',
    );
    expect(httpsRedirect(new Request('http://10.0.0.5:8080/panel'), 8443, 'http://alerts.example.com').headers.get('location')).toBe('https://10.0.0.5:8443/panel');
  });
});
