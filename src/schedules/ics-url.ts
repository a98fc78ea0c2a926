/**
 * Where a schedule's calendar feed is read (docs/on-call.md "On-call schedules"): panel.public_url
 * when set; else the HTTP listen address as this host is reached (a wildcard bind read as
 * localhost), HTTPS when the appliance serves TLS itself. The panel passes the base it
 * derives from the request instead.
 */
export function icsPath(token: string): string {
  return `/schedules/${token}.ics`;
}

export function icsUrl(config: { panel: { public_url: string }; http: { listen: string; tls: string; tls_cert_file: string } }, token: string): string {
  if (config.panel.public_url) return config.panel.public_url.replace(/\/+$/, '') + icsPath(token);
  const tls = config.http.tls !== 'off' || config.http.tls_cert_file !== '';
  const listen = config.http.listen.replace(/^0\.0\.0\.0:/, '127.0.0.1:').replace(/^\[::\]:/, '[::1]:');
  return `${tls ? 'https' : 'http'}://${listen}${icsPath(token)}`;
}
