/** Every time the outside world reads from us: ISO 8601 in UTC with milliseconds (docs/http-api.md). */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
