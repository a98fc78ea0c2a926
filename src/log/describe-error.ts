/** An error as one log field: its type and message, never its stack. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return typeof e === 'string' ? e : 'non-Error thrown';
}
