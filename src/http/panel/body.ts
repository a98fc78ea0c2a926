import type { Logger } from '../../log';
import { readBodyLimited } from '../read-body';

/** Largest panel request body: every panel form is a few fields of text. */
export const PANEL_BODY_LIMIT_BYTES = 64 * 1024;

/** A body the panel would not parse: 413 too large, 400 malformed or cut off. Routes answer it with an error page. */
export class BodyProblem {
  constructor(readonly status: 400 | 413) {}
}

export function bodyProblemOf(body: unknown): BodyProblem | null {
  return body instanceof BodyProblem ? body : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The panel's own body parser (an Elysia onParse hook), in place of Elysia's, which reads a
 * body of any size into memory before anyone has logged in and answers a malformed one with
 * an exception (a 500 and an error-level stack). Here: a declared Content-Length over the
 * limit is refused before a byte is read, a chunked body stops being read past it, and
 * anything unreadable becomes a BodyProblem value, never a throw. Forms (urlencoded) and
 * JSON are read; an empty body is an empty form.
 */
export function panelBodyParser(log: Logger) {
  return async ({ request }: { request: Request }): Promise<Record<string, unknown> | BodyProblem> => {
    let bytes: Uint8Array | null;
    try {
      bytes = await readBodyLimited(request, PANEL_BODY_LIMIT_BYTES);
    } catch (err) {
      // The client went away mid-body: nobody is left to answer, nothing went wrong here.
      // The path without its query (never logged) and without parsing the URL, which may be bad.
      const path = request.url.replace(/^[a-z]+:\/\/[^/]*/i, '').split('?')[0];
      log.debug({ path, err: String(err) }, 'panel request body not received');
      return new BodyProblem(400);
    }
    if (bytes === null) return new BodyProblem(413);
    if (bytes.byteLength === 0) return {};
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return new BodyProblem(400);
    }
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
    if (type === 'application/json') {
      try {
        const value: unknown = JSON.parse(text);
        return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : new BodyProblem(400);
      } catch {
        return new BodyProblem(400);
      }
    }
    return new BodyProblem(400); // multipart, text, anything else: no panel form sends it
  };
}
