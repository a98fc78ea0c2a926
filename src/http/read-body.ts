/**
 * Reads at most `limit` bytes of a request body. Returns null when the body is larger:
 * a declared Content-Length over the limit is refused before anything is read, and
 * a chunked body stops being read as soon as it passes the limit.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array | null> {
  const length = request.headers.get('content-length');
  if (length !== null) {
    const declared = Number(length);
    if (declared > limit) return null;
    // The server stops at the declared length, so reading it whole is safe and much
    // cheaper than pulling chunks through a stream reader.
    if (Number.isInteger(declared) && declared >= 0) return new Uint8Array(await request.arrayBuffer());
  }
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
