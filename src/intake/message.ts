/** docs/http-api.md's limit on error_message, in Unicode code points after trimming. */
export const MAX_MESSAGE_CODE_POINTS = 500;

/** Trimmed text of a field, or '' when it is absent, empty or not text. */
export function textField(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

export function isMessageTooLong(message: string): boolean {
  let n = 0;
  for (const _ of message) if (++n > MAX_MESSAGE_CODE_POINTS) return true;
  return false;
}
