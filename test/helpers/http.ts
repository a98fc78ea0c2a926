/** A POST as a monitoring system would send it; returns status, parsed body and headers. */
export async function post(
  url: string,
  body: string | Uint8Array | Record<string, unknown> | unknown[],
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const isRaw = typeof body === 'string' || body instanceof Uint8Array;
  const res = await fetch(url, {
    method: 'POST',
    body: isRaw ? (body as BodyInit) : JSON.stringify(body),
    headers: isRaw ? headers : { 'content-type': 'application/json', ...headers },
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { unparsed: text };
  }
  return { status: res.status, json, headers: res.headers };
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** 500 characters of Turkish, with every letter that has a diacritic. */
export function turkishText(length: number): string {
  const base = 'Çekirdek yönlendirici ğüşıöç ÇĞİÖŞÜ bağlantısı kesildi; ';
  let s = '';
  while ([...s].length < length) s += base;
  return [...s].slice(0, length).join('');
}
