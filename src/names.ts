import * as z from 'zod';

/**
 * The one rule for the names a person gives escalation policies, heartbeats and on-call
 * schedules (CLI, panel): 1–60 of letters, digits, spaces, `.`, `_` and `-`, trimmed. Spaces
 * are allowed in all three (quoted on the command line: `policy show ACC "night shift"`); a
 * schedule named in a step as `@night shift` is read up to the next comma, so a space is safe
 * there too. A leaf: it imports nothing of ours, so escalation/, heartbeats/ and schedules/
 * share it without importing each other.
 */
export const objectName = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^[\w.\- ]+$/, 'letters, digits, spaces, . _ - only');
