/**
 * Where each key of a TOML file is written, by line (1-based), so a refused value is reported
 * as `file:line` (issue 49: the line was dropped). Keys are dotted paths as the schema's issues
 * name them: `http.listen`, and for arrays of tables the index, `sip.trunks.0.server`; a table
 * header's line stands for the table itself (`http`, `sip.trunks.1`).
 *
 * Reads only what TOML 1.0 puts at the start of a line (https://toml.io/en/v1.0.0: tables,
 * arrays of tables, `key = value` with bare, quoted or dotted keys), after smol-toml has
 * accepted the file, so the syntax is known to be valid. Lines inside a multi-line string or
 * array are skipped: a `"""` or `'''` opens a string until its closing quotes, an unclosed `[`
 * after `=` an array until its `]`. A locator, not a parser: what it cannot place has no line.
 */
export function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const arrayCounts = new Map<string, number>();
  let table: string[] = [];
  let openString: '"""' | "'''" | null = null;
  let arrayDepth = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    const n = i + 1;
    if (openString) {
      if (line.includes(openString)) openString = null;
      return;
    }
    if (arrayDepth > 0) {
      arrayDepth += bracketBalance(line);
      return;
    }
    if (line === '' || line.startsWith('#')) return;
    const arrayTable = /^\[\[\s*(.+?)\s*\]\]/.exec(line);
    if (arrayTable) {
      const base = splitKey(arrayTable[1]!).join('.');
      const index = arrayCounts.get(base) ?? 0;
      arrayCounts.set(base, index + 1);
      table = [base, String(index)];
      lines.set(table.join('.'), n);
      if (!lines.has(base)) lines.set(base, n);
      return;
    }
    const header = /^\[\s*(.+?)\s*\]/.exec(line);
    if (header) {
      table = [withArrayIndex(splitKey(header[1]!).join('.'), arrayCounts)];
      if (!lines.has(table[0]!)) lines.set(table[0]!, n);
      return;
    }
    const assignment = /^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=\s*(.*)$/.exec(line);
    if (!assignment) return;
    const key = [...table, ...splitKey(assignment[1]!)].join('.');
    if (!lines.has(key)) lines.set(key, n);
    const value = assignment[2]!;
    for (const quotes of ['"""', "'''"] as const) {
      if (value.startsWith(quotes) && value.split(quotes).length === 2) openString = quotes;
    }
    if (value.startsWith('[')) arrayDepth = Math.max(0, bracketBalance(value));
  });
  return lines;
}

/** The line of `key`, else of the nearest table or key that holds it; null when none is in the file. */
export function lineOf(lines: Map<string, number>, key: string): number | null {
  const parts = key.split('.');
  for (let k = parts.length; k > 0; k--) {
    const line = lines.get(parts.slice(0, k).join('.'));
    if (line !== undefined) return line;
  }
  return null;
}

/** `[sip.trunks.tls]` under an array of tables belongs to its last element: `sip.trunks.N.tls`. */
function withArrayIndex(path: string, arrayCounts: Map<string, number>): string {
  for (const [base, count] of arrayCounts) {
    if (path.startsWith(base + '.')) return `${base}.${count - 1}${path.slice(base.length)}`;
  }
  return path;
}

function splitKey(key: string): string[] {
  return (key.match(/"[^"]*"|'[^']*'|[^.\s]+/g) ?? []).map((p) => p.replace(/^["']|["']$/g, ''));
}

/** `[` minus `]` outside strings and comments: above 0, an array continues on the next line. */
function bracketBalance(s: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#') break;
    else if (ch === '[') depth++;
    else if (ch === ']') depth--;
  }
  return depth;
}
