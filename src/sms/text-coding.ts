/**
 * How a text goes to the modem in text mode (3GPP TS 27.005 §3.1 `+CMGF=1`): in the TE
 * character set `+CSCS` names (TS 27.007 §5.5) with the data coding scheme `+CSMP` sets.
 *
 * - `gsm`: every character is printable ASCII that the GSM 7-bit default alphabet also has
 *   (TS 23.038 §6.2.1). It is written as `IRA` (ITU T.50, i.e. ASCII), one byte a character,
 *   which the modem turns into 7-bit septets (DCS 0). `@ $ _` and the extension characters
 *   `^ { } \ [ ] ~ |` are in the alphabet but not at their ASCII places, so IRA is the one TE set
 *   whose bytes mean the same to every modem; the extension ones cost two septets each.
 * - `ucs2`: anything else (Turkish ç ğ ı ş İ, emoji …): `+CSCS="UCS2"`, the text (and the
 *   number!) written as hex of UTF-16 big-endian code units (DCS 8).
 *
 * Text mode cannot carry the concatenation header (TS 23.040 §9.2.3.24.1 needs PDU mode or a
 * UDH the modem would not build), so a long text goes as several texts, each opening with
 * `(i/n) ` so the reader puts them back in order. One part holds 160 septets (GSM) or 70 UTF-16
 * units (UCS-2): TS 23.038 §6.1.2.
 */
export type TextCoding = 'gsm' | 'ucs2';

/** In the alphabet's extension table: two septets each (escape + code). */
const GSM_EXTENSION = /[\^{}\\[\]~|]/g;
/** GSM 7-bit default alphabet (basic and extension) ∩ printable ASCII and LF (TS 23.038 §6.2.1: no backquote). */
const GSM_ALL_ASCII = /^[A-Za-z0-9 \n!"#%&'()*+,\-./:;<=>?@$_^{}\\[\]~|]*$/;

export const PART_LIMIT: Record<TextCoding, number> = { gsm: 160, ucs2: 70 };

export function codingOf(text: string): TextCoding {
  return GSM_ALL_ASCII.test(text) ? 'gsm' : 'ucs2';
}

/** Septets (gsm) or UTF-16 units (ucs2) the text takes. */
export function unitsOf(text: string, coding: TextCoding): number {
  if (coding === 'ucs2') return text.length;
  return text.length + (text.match(GSM_EXTENSION)?.length ?? 0);
}

/**
 * The texts to send for `text`: one when it fits, else parts each opening with `(i/n) ` and
 * fitting the limit with that prefix. Never splits a UTF-16 surrogate pair (an emoji stays
 * whole) and prefers to cut after a space.
 */
export function splitText(input: string): { coding: TextCoding; parts: string[] } {
  // A CR inside the text would end the line in the modem's text entry (TS 27.005 §3.5.1: it
  // answers with another prompt): line breaks go as LF alone.
  const text = input.replace(/\r\n?/g, '\n');
  const coding = codingOf(text);
  const limit = PART_LIMIT[coding];
  if (unitsOf(text, coding) <= limit) return { coding, parts: [text] };
  // The prefix's width depends on n; at most two rounds settle it ("(9/9) " vs "(10/12) ").
  let n = Math.ceil(unitsOf(text, coding) / (limit - 6));
  for (;;) {
    const bodies = cut(text, coding, limit - `(${n}/${n}) `.length);
    if (bodies.length <= n || String(bodies.length).length === String(n).length) {
      return { coding, parts: bodies.map((b, i) => `(${i + 1}/${bodies.length}) ${b}`) };
    }
    n = bodies.length;
  }
}

function cut(text: string, coding: TextCoding, room: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (unitsOf(rest, coding) > room) {
    let end = 0;
    let used = 0;
    // Walk code points so a surrogate pair is taken whole or not at all.
    for (const ch of rest) {
      const u = unitsOf(ch, coding);
      if (used + u > room) break;
      used += u;
      end += ch.length;
    }
    const space = rest.lastIndexOf(' ', end);
    if (space > end / 2) end = space + 1;
    out.push(rest.slice(0, end).trimEnd());
    rest = rest.slice(end);
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

/** `+CSCS="UCS2"` form: hex of UTF-16BE code units, upper case (TS 27.007 §5.5). */
export function toUcs2Hex(text: string): string {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return hex;
}

/** The reverse; null when `hex` is not whole UTF-16 units of hex digits. */
export function fromUcs2Hex(hex: string): string | null {
  if (hex.length % 4 !== 0 || !/^[0-9A-Fa-f]*$/.test(hex)) return null;
  let text = '';
  for (let i = 0; i < hex.length; i += 4) text += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return text;
}
