import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths';

/**
 * The README as the tests that run its recipes read it (they run what it says, so the two
 * cannot drift apart): a section of it, and the code blocks in there.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** From the heading `from` (e.g. `### Heartbeats`) up to `to`, or to the end. */
export function readmeSection(from: string, to?: string): string {
  const start = README.indexOf(from);
  if (start < 0) throw new Error(`README has no "${from}"`);
  return to === undefined ? README.slice(start) : README.slice(start, README.indexOf(to, start));
}

/** The first fenced block after `**<title>**` in `section`, or the section's first with no title. */
export function readmeBlock(section: string, title?: string): string {
  const at = title === undefined ? 0 : section.indexOf(`**${title}**`);
  if (at < 0) throw new Error(`README has no recipe "${title}"`);
  const m = /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(at));
  if (!m) throw new Error(`recipe "${title ?? section.slice(0, 40)}" has no code block`);
  return m[1]!;
}
