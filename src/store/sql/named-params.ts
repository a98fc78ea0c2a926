/**
 * bun:sqlite binds `$name` parameters from an object; PostgreSQL takes `$1…$n` from an
 * array. This rewrites the SQL once per statement text and gives the order to bind in.
 * Quoted strings, quoted identifiers and comments are copied untouched; `$1`-style and
 * `$$` are not names and are left alone.
 */
export interface PositionalSql {
  sql: string;
  /** Parameter names in `$1…$n` order. */
  names: string[];
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

export function toPositional(sql: string): PositionalSql {
  const names: string[] = [];
  const index = new Map<string, number>();
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && NAME_START.test(sql[i + 1] ?? '')) {
      let j = i + 1;
      while (j < sql.length && NAME_PART.test(sql[j]!)) j++;
      const name = sql.slice(i + 1, j);
      let n = index.get(name);
      if (n === undefined) {
        names.push(name);
        n = names.length;
        index.set(name, n);
      }
      out += `$${n}`;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return { sql: out, names };
}

/** Index just past the quote that closes the one at `start` (a doubled quote is an escape). */
function closingQuote(sql: string, start: number, q: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === q) {
      if (sql[i + 1] === q) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** The values of `params` in the order `names` wants them; a missing one is an error, as in bun:sqlite strict mode. */
export function bindOrder(names: string[], params: Record<string, unknown> | undefined): unknown[] {
  return names.map((n) => {
    if (!params || !(n in params)) throw new Error(`SQL parameter $${n} was not given`);
    const v = params[n];
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  });
}
