/**
 * The human text of every list and record the CLI prints (docs "CLI conventions"): one line per
 * item, its id first, fields separated by one tab (so `cut -f` and `awk -F'\t'` read it, and a
 * name with spaces stays one field); a missing value is `-`. A `show` prints the item's line and
 * then its parts (steps, layers, calls…), each on a line that starts with two spaces. An empty
 * list prints nothing. `--json` is the format for scripts; this one is for people and `grep`.
 */
export function row(...fields: (string | number | null | undefined)[]): string {
  return fields.map((f) => (f === null || f === undefined || f === '' ? '-' : String(f))).join('\t');
}

/** One part of the item above it. */
export function part(...fields: (string | number | null | undefined)[]): string {
  return `  ${row(...fields)}`;
}

/** With --json the list as one JSON document; otherwise one line per item (nothing when empty). */
export function printList<T>(json: boolean, items: readonly T[], toJson: (item: T) => unknown, line: (item: T) => string): void {
  if (json) process.stdout.write(JSON.stringify(items.map(toJson)) + '\n');
  else if (items.length > 0) process.stdout.write(items.map(line).join('\n') + '\n');
}
