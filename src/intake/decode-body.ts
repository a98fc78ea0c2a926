/**
 * Reads an alert request body by its Content-Type: form fields, or a JSON object
 * (application/json, text/plain holding JSON, and a missing or unknown type).
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
  const { mediaType, charset } = parseContentType(contentType);
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

function parseContentType(header: string | null): { mediaType: string; charset: string } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset = 'utf-8';
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k?.trim().toLowerCase() === 'charset' && v) charset = v.trim().replace(/^"|"$/g, '');
  }
  return { mediaType: type.trim().toLowerCase(), charset };
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

/** Strict form decoding: a bad percent-escape (or one that is not UTF-8) is malformed. */
function decodeForm(text: string): DecodedBody {
  const fields: Record<string, unknown> = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return MALFORMED;
    }
    const prev = fields[key];
    // A repeated field (phone_number=…&phone_number=…) becomes a list.
    fields[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return { ok: true, fields };
}
