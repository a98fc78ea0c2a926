/**
 * Reads an alert request body by its Content-Type: form fields (urlencoded or multipart), or a
 * JSON object (application/json, text/plain holding JSON, and a missing or unknown type).
 * Text must be valid in its charset (UTF-8 unless stated): mojibake is refused,
 * not queued as a message nobody can understand.
 */
export type DecodedBody = { ok: true; fields: Record<string, unknown> } | { ok: false };

const MALFORMED = { ok: false } as const;

const decoders = new Map<string, TextDecoder>();

/** A fatal decoder per charset label, reused (decode() without `stream` keeps no state). */
function decoderFor(charset: string): TextDecoder {
  const label = charset.toLowerCase();
  let d = decoders.get(label);
  if (!d) {
    d = new TextDecoder(label, { fatal: true }); // throws for an unknown label
    if (decoders.size < 32) decoders.set(label, d);
  }
  return d;
}

export function decodeBody(raw: Uint8Array, contentType: string | null): DecodedBody {
  const { mediaType, charset, boundary } = parseContentType(contentType);
  if (mediaType === 'multipart/form-data') return decodeMultipart(raw, boundary, charset);
  let text: string;
  try {
    text = decoderFor(charset).decode(raw);
  } catch {
    return MALFORMED; // invalid bytes for the charset, or a charset we do not know
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    // `curl -d '{…}'` sends JSON labelled as a form; read it as what it plainly is.
    if (text.trimStart().startsWith('{')) {
      const json = decodeJsonObject(text);
      if (json.ok) return json;
    }
    return decodeForm(text);
  }
  return decodeJsonObject(text);
}

function parseContentType(header: string | null): { mediaType: string; charset: string; boundary: string | null } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset = 'utf-8';
  let boundary: string | null = null;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
    if (k === 'charset' && v) charset = v;
    if (k === 'boundary' && v) boundary = v;
  }
  return { mediaType: type.trim().toLowerCase(), charset, boundary };
}

function decodeJsonObject(text: string): DecodedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return MALFORMED;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return MALFORMED;
  if (!allTextWellFormed(value)) return MALFORMED;
  return { ok: true, fields: value as Record<string, unknown> };
}

/**
 * JSON may escape half a surrogate pair (`"\ud800"`, RFC 8259 §8.2 leaves it to the reader);
 * stored, it becomes U+FFFD and a message nobody sent. Every key and string is checked,
 * iteratively: a 64 KiB body can nest 30,000 levels deep.
 */
function allTextWellFormed(root: object): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return false;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item); // not push(...v): a long array would overflow the argument limit
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (!k.isWellFormed()) return false;
        pending.push(item);
      }
    }
  }
  return true;
}

/**
 * Form decoding. A `%` that does not start a valid escape is kept as it is: PRTG sends its
 * placeholders raw ("CPU 95 %"), and refusing the alert would lose it. An escape that is
 * well-formed but not UTF-8 is still malformed (mojibake is refused, see above).
 */
function decodeForm(text: string): DecodedBody {
  const fields: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decodeComponent(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(pair.slice(eq + 1));
    if (key === null || value === null) return MALFORMED;
    addField(fields, key, value);
  }
  return { ok: true, fields };
}

/** `+` is a space; `%XX` escapes are decoded; a stray `%` stays a literal `%`. Null: not UTF-8. */
function decodeComponent(raw: string): string | null {
  const escaped = raw.replace(/\+/g, ' ').replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  try {
    return decodeURIComponent(escaped);
  } catch {
    return null;
  }
}

/** A repeated field (phone_number=…&phone_number=…) becomes a list. */
function addField(fields: Record<string, unknown>, key: string, value: string): void {
  const prev = fields[key];
  fields[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/**
 * multipart/form-data (RFC 7578): each part's `name` is a field; its body is text in the
 * part's charset (else the request's). File parts (with a filename) are not alert fields and
 * are skipped. No boundary, or none found in the body, is malformed.
 */
function decodeMultipart(raw: Uint8Array, boundary: string | null, charset: string): DecodedBody {
  if (!boundary) return MALFORMED;
  // latin1 maps each byte to one char, so offsets found in the string are byte offsets.
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const text = bytes.toString('latin1');
  const delimiter = `--${boundary}`;
  const fields: Record<string, unknown> = {};
  let at = text.indexOf(delimiter);
  if (at < 0) return MALFORMED;
  for (;;) {
    at += delimiter.length;
    if (text.startsWith('--', at)) break; // the close delimiter
    const next = text.indexOf(`\r\n${delimiter}`, at);
    if (next < 0) return MALFORMED;
    const part = text.slice(at, next).replace(/^[ \t]*\r\n/, '');
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return MALFORMED;
    const head = part.slice(0, split);
    const disposition = /^content-disposition:(.*)$/im.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? /\bname=([^;\s]+)/i.exec(disposition)?.[1];
    const partCharset = /^content-type:.*;\s*charset="?([\w-]+)"?/im.exec(head)?.[1] ?? charset;
    if (name !== undefined && !/\bfilename\*?=/i.test(disposition)) {
      try {
        const body = Buffer.from(part.slice(split + 4), 'latin1');
        addField(fields, decoderFor(partCharset).decode(Buffer.from(name, 'latin1')), decoderFor(partCharset).decode(body));
      } catch {
        return MALFORMED;
      }
    }
    at = next + 2;
  }
  return { ok: true, fields };
}
