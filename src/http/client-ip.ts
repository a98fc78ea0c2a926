/**
 * The address a request came from. Behind a reverse proxy (http.trust_proxy) it is the
 * last X-Forwarded-For entry: the one our proxy wrote, which a client cannot forge
 * (earlier entries come from the client and may be anything).
 */
export function clientIp(request: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = request.headers.get('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean);
    const last = hops?.[hops.length - 1];
    if (last) return last;
  }
  return socketAddress ?? 'unknown';
}
