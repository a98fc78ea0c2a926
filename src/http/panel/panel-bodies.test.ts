import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { browser, panelApp } from '../../../test/helpers/panel-app';
import { BodyProblem, PANEL_BODY_LIMIT_BYTES, panelBodyParser } from './body';

/** A pino logger that keeps its lines, to assert what was (not) logged and at which level. */
function recordingLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

/** A body that produces `chunks` chunks of 64 KiB on demand, counting how many were pulled. */
function countingStream(chunks: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks) return c.close();
      pulled++;
      c.enqueue(new Uint8Array(64 * 1024).fill(97));
    },
  });
  return { stream, pulled: () => pulled };
}

async function loggedIn(language = 'en') {
  const ctx = await panelApp({ language: language as 'en' });
  await ctx.users.createAdmin('admin', 'a-long-password-1');
  const b = browser(ctx.app);
  await b.login('admin', 'a-long-password-1');
  const recorded = recordingLog();
  ctx.deps.log = recorded.log; // the edge's onError reads deps.log per request
  return { ...ctx, b, lines: recorded.lines };
}

describe('panel request bodies', () => {
  test('a declared Content-Length over 64 KiB is refused with 413 before the body is read, logged in or not', async () => {
    const { app, lines } = await loggedIn();
    const body = countingStream(300); // ~19 MB if anyone read it
    const res = await app.handle(
      new Request('http://localhost/panel/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(300 * 64 * 1024) },
        body: body.stream,
        // @ts-expect-error Bun's RequestInit knows duplex
        duplex: 'half',
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('at most 64 KiB');
    expect(body.pulled()).toBeLessThanOrEqual(1);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  test('a chunked body stops being read just past the limit: 413', async () => {
    const { b, app } = await loggedIn();
    const csrf = await b.csrf('/panel/accounts');
    const body = countingStream(300);
    const res = await app.handle(
      new Request('http://localhost/panel/accounts', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
        body: body.stream,
        // @ts-expect-error Bun's RequestInit knows duplex
        duplex: 'half',
      }),
    );
    expect(res.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(PANEL_BODY_LIMIT_BYTES / (64 * 1024) + 2);
  });

  test('malformed bodies are 400 with an error page, never a 500 or an error-level log line', async () => {
    const { app, b, lines } = await loggedIn();
    const csrf = await b.csrf('/panel/accounts');
    const cases: [string, BodyInit][] = [
      ['application/json', '{"name": '],
      ['application/json', '[1,2]'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\u0001--'],
      ['application/x-www-form-urlencoded', new Uint8Array([0x6e, 0x3d, 0xff, 0xfe])],
      ['text/plain', 'hello'],
    ];
    for (const [type, body] of cases) {
      const answer = await fetchWith(app, b, '/panel/accounts', type, body, csrf);
      expect(answer.status, type).toBe(400);
      expect(answer.headers.get('content-type'), type).toMatch(/^text\/html/);
      expect(await answer.text(), type).toContain('could not be read');
    }
    const answer = await fetchWith(app, b, '/panel/login', 'application/json', '{', '');
    expect(answer.status).toBe(400);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  test('a client that goes away mid-body is one debug line, not an error', async () => {
    const { log, lines } = recordingLog();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array([97, 61]));
        c.error(new Error('connection reset'));
      },
    });
    // @ts-expect-error Bun's RequestInit knows duplex
    const request = new Request('http://localhost/panel/login?key=secret', { method: 'POST', body: stream, duplex: 'half' });
    const parsed = await panelBodyParser(log)({ request });
    expect(parsed).toEqual(new BodyProblem(400));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([[20, 'panel request body not received']]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});

/** POST a raw body with the browser's cookies. */
async function fetchWith(app: { handle(r: Request): Promise<Response> }, b: ReturnType<typeof browser>, path: string, type: string, body: BodyInit, csrf: string) {
  const headers = new Headers({ 'content-type': type, cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ') });
  if (csrf) headers.set('x-csrf-token', csrf);
  return app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body }));
}
