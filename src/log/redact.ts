/**
 * A URL's query in a log line becomes `?[redacted]`: the webhook key travels as `?key=`,
 * and docs/https.md "Security" promises that no log holds one. Applied to every line as written, so
 * an error message that quotes a URL (Bun's "Invalid URL …", a stack) is covered too.
 * Stops at a quote or backslash so the JSON line stays valid.
 */
const URL_QUERY = /((?:[a-z][a-z0-9+.-]*:\/\/[^\s"\\?]*)|(?:\/[^\s"\\?]*))\?[^\s"\\]+/gi;

export function redactQueries(line: string): string {
  return line.includes('?') ? line.replace(URL_QUERY, '$1?[redacted]') : line;
}
