/**
 * The answers the modem session reads, parsed from their lines (3GPP TS 27.007, TS 27.005).
 * Each parser takes what it is given and returns null for anything it cannot read: a modem's
 * odd answer is a status of "unknown", never a thrown error.
 */

/** `+CPIN: READY` / `SIM PIN` / `SIM PUK` … (TS 27.007 §8.3); null when absent. */
export function parseCpin(lines: string[]): string | null {
  for (const l of lines) {
    const m = /^\+CPIN: ?"?([^"]+?)"?\s*$/.exec(l);
    if (m) return m[1]!;
  }
  return null;
}

/** `<stat>` of `+CREG` (TS 27.007 §7.2). */
export const REGISTRATION_STATES = {
  0: 'not registered',
  1: 'registered, home network',
  2: 'searching',
  3: 'registration denied',
  4: 'unknown',
  5: 'registered, roaming',
} as const;

export interface Registration {
  stat: number;
  registered: boolean;
  text: string;
}

/** `+CREG: <n>,<stat>[,…]` (the answer to `AT+CREG?`) or `+CREG: <stat>` (unsolicited). */
export function parseCreg(lines: string[]): Registration | null {
  for (const l of lines) {
    const m = /^\+CREG: ?(\d+)(?:,(\d+))?/.exec(l);
    if (!m) continue;
    const stat = Number(m[2] ?? m[1]);
    return { stat, registered: stat === 1 || stat === 5, text: REGISTRATION_STATES[stat as keyof typeof REGISTRATION_STATES] ?? `unknown (${stat})` };
  }
  return null;
}

/** `+CSQ: <rssi>,<ber>` (TS 27.007 §8.5): rssi 0 is −113 dBm or less, 31 is −51 or more, 99 unknown. */
export function parseCsq(lines: string[]): { rssi: number; dbm: number | null } | null {
  for (const l of lines) {
    const m = /^\+CSQ: ?(\d+),(\d+)/.exec(l);
    if (!m) continue;
    const rssi = Number(m[1]);
    return { rssi, dbm: rssi <= 31 ? -113 + 2 * rssi : null };
  }
  return null;
}

/** `+CMTI: <mem>,<index>` (TS 27.005 §3.4.1): the index of a new stored text. */
export function parseCmti(line: string): number | null {
  const m = /^\+CMTI: ?"?[A-Z]*"?,(\d+)\s*$/.exec(line);
  return m ? Number(m[1]) : null;
}

/**
 * `+CMGR: <stat>,<oa>,[<alpha>],<scts>` then the text's lines (TS 27.005 §3.4.3, text mode),
 * read with `+CSCS="UCS2"`: the sender and the text are hex, `decode` turns them back (a
 * modem that ignored the character set leaves them readable as they are).
 */
export function parseCmgr(lines: string[], decode: (hex: string) => string | null): { from: string; body: string } | null {
  const head = lines.findIndex((l) => l.startsWith('+CMGR:'));
  if (head < 0) return null;
  const fields = csv(lines[head]!.replace(/^\+CMGR: ?/, ''));
  const oa = fields[1];
  if (!oa) return null;
  const raw = lines.slice(head + 1).join('\n');
  return { from: decode(oa) ?? oa, body: decode(raw) ?? raw };
}

/** Comma-separated fields, double quotes removed (a quoted field keeps its commas). */
function csv(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
