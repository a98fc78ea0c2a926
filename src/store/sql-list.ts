/**
 * A list of our own constants (call states) as an SQL `IN (…)` body. Only for values the
 * code defines (never user input), so the query text stays static and cacheable.
 */
export function sqlList(values: readonly string[]): string {
  for (const v of values) if (!/^[a-z_]+$/.test(v)) throw new Error(`not an SQL-safe constant: ${v}`);
  return values.map((v) => `'${v}'`).join(', ');
}
