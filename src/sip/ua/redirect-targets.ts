import type { URI } from 'sip.js';

/** Contacts of a 3xx, highest `q` first (RFC 3261 §20.10: absent q counts as 1). */
export function redirectContacts(m: { getHeaders(n: string): string[]; parseHeader(n: string, i?: number): unknown }): URI[] {
  const all = m
    .getHeaders('contact')
    .map((_, i) => m.parseHeader('contact', i) as { uri: URI; getParam(n: string): string | undefined } | undefined)
    .filter((c) => c !== undefined && (c.uri.scheme === 'sip' || c.uri.scheme === 'sips'));
  const q = (c: (typeof all)[number]) => Number(c?.getParam('q') ?? 1);
  return all.sort((a, b) => q(b) - q(a)).map((c) => c!.uri);
}
