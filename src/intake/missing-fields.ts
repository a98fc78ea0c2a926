/**
 * The names of the required fields that are absent or empty, in the order given: the
 * extra `missing` field of a `400 Missing fields` answer, so a client sees which one
 * (issue 10 §10). A value counts as present when truthy (callers pass trimmed text, or
 * a boolean where presence is computed, e.g. a signature standing in for api_secret).
 */
export function missingFields(required: Record<string, unknown>): string[] {
  return Object.entries(required)
    .filter(([, v]) => !v)
    .map(([name]) => name);
}
