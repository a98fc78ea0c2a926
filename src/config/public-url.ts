/**
 * The appliance's base URL as printed for people to use (docs/operations.md "Addresses the
 * appliance prints"): the one rule for every URL the CLI and the start banner print (feed URLs,
 * ping URLs, the panel). In order:
 *
 *   1. `panel.public_url` when set: the operator said how the appliance is reached;
 *   2. the address the server actually listens on (`bound`: what `serve` got from the socket,
 *      or what it recorded for the CLI, see listen-record.ts), so `--listen 18080` shows 18080;
 *   3. `http.listen` from the configuration (a CLI process on a machine where nothing serves yet).
 *
 * A wildcard bind (0.0.0.0, ::) is not an address anyone can type: it is shown as loopback,
 * which works on the appliance's own host. HTTPS when the appliance serves TLS itself.
 * Never ends in a slash: callers append a path starting with one.
 */
export interface PublicUrlConfig {
  panel: { public_url: string };
  http: { listen: string; tls: string; tls_cert_file: string };
}

export function publicBaseUrl(config: PublicUrlConfig, bound?: string | null): string {
  if (config.panel.public_url) return config.panel.public_url.replace(/\/+$/, '');
  if (bound) return withoutWildcard(bound.replace(/\/+$/, ''));
  const tls = config.http.tls !== 'off' || config.http.tls_cert_file !== '';
  return withoutWildcard(`${tls ? 'https' : 'http'}://${config.http.listen}`);
}

/** `http://0.0.0.0:8080` → `http://127.0.0.1:8080`; `http://[::]:8080` → `http://[::1]:8080`. */
function withoutWildcard(url: string): string {
  return url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
}
