import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths';

/**
 * The documentation as the tests that run its recipes read it (they run what it says, so the
 * two cannot drift apart): a section of one of its files (README.md, docs/*.md), and the code
 * blocks in there.
 */
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Where the heading line that starts with `heading` begins in `text` (`## X` never matches `### X`). */
function headingAt(text: string, heading: string, from = 0): number {
  const m = new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').exec(text.slice(from));
  return m ? from + m.index : -1;
}

/** In `file` (e.g. `docs/on-call.md`), from the heading `from` (e.g. `## Heartbeats`) up to the heading `to`, or to the end. */
export function docSection(file: string, from: string, to?: string): string {
  const text = read(file);
  const start = headingAt(text, from);
  if (start < 0) throw new Error(`${file} has no "${from}"`);
  if (to === undefined) return text.slice(start);
  const end = headingAt(text, to, start + 1);
  if (end < 0) throw new Error(`${file} has no "${to}" after "${from}"`);
  return text.slice(start, end);
}

/** The first fenced block after `**<title>**` in `section`, or the section's first with no title. */
export function docBlock(section: string, title?: string): string {
  const at = title === undefined ? 0 : section.indexOf(`**${title}**`);
  if (at < 0) throw new Error(`the docs have no recipe "${title}"`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(at));
  if (!m) throw new Error(`recipe "${title ?? section.slice(0, 40)}" has no code block`);
  return m[1]!;
}
