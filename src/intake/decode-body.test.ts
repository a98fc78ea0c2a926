import { describe, expect, it } from 'vitest';
import { decodeBody } from './decode-body';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('decodeBody', () => {
  it('reads JSON objects, also as text/plain and with no or another content type', () => {
    for (const ct of ['application/json', 'text/plain', 'text/plain; charset=utf-8', null, 'application/xml']) {
      expect(decodeBody(bytes('{"a":"ş"}'), ct)).toEqual({ ok: true, fields: { a: 'ş' } });
    }
  });

  it('reads form fields with Turkish text intact, repeated fields as a list', () => {
    const body = `phone_number=5321234567&phone_number=5321234568&error_message=${encodeURIComponent('Çağrı: ağ kesildi')}+şimdi`;
    expect(decodeBody(bytes(body), 'application/x-www-form-urlencoded')).toEqual({
      ok: true,
      fields: { phone_number: ['5321234567', '5321234568'], error_message: 'Çağrı: ağ kesildi şimdi' },
    });
  });

  it('reads JSON sent with a form content type (curl -d without -H)', () => {
    expect(decodeBody(bytes('{"a":1}'), 'application/x-www-form-urlencoded')).toEqual({ ok: true, fields: { a: 1 } });
  });

  it.each([
    ['an empty body', ''],
    ['a JSON array', '[{"a":1}]'],
    ['JSON null', 'null'],
    ['a JSON string', '"x"'],
    ['broken JSON', '{"a":'],
    ['XML', '<alert/>'],
  ])('refuses %s', (_name, body) => {
    expect(decodeBody(bytes(body), 'application/json')).toEqual({ ok: false });
  });

  it('refuses invalid UTF-8 in JSON and in form escapes', () => {
    expect(decodeBody(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'application/json')).toEqual({ ok: false });
    expect(decodeBody(bytes('error_message=%FF'), 'application/x-www-form-urlencoded')).toEqual({ ok: false });
  });

  it('honours a declared charset it knows, refuses one it does not', () => {
    const latin5 = new Uint8Array([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]); // {"m":"ş"} in ISO-8859-9
    expect(decodeBody(latin5, 'application/json; charset=iso-8859-9')).toEqual({ ok: true, fields: { m: 'ş' } });
    expect(decodeBody(bytes('{}'), 'application/json; charset=x-unknown')).toEqual({ ok: false });
  });
});

describe('decodeBody: half a surrogate pair', () => {
  it('a lone surrogate escaped in JSON is malformed, in a value, a key or deep inside', () => {
    for (const json of ['{"error_message":"disk \\ud800 full"}', '{"\\udc00":"x"}', '{"a":[{"b":["\\udbff"]}]}']) {
      expect(decodeBody(bytes(json), 'application/json')).toEqual({ ok: false });
    }
  });

  it('a whole pair (an emoji written as escapes) is fine, and deep nesting does not overflow', () => {
    expect(decodeBody(bytes('{"m":"\\ud83d\\udd25"}'), 'application/json')).toEqual({ ok: true, fields: { m: '🔥' } });
    const deep = '{"a":' + '['.repeat(20_000) + ']'.repeat(20_000) + '}';
    expect(decodeBody(bytes(deep), 'application/json').ok).toBe(true);
  });
});

describe('decodeBody: multipart/form-data (RFC 7578)', () => {
  it('reads parts like form fields, as a real FormData body encodes them', async () => {
    const form = new FormData();
    form.append('phone_number', '5321234567');
    form.append('phone_number', '5321234568');
    form.append('error_message', 'Disk dolu: %95 ş');
    form.append('attachment', new Blob(['ignored']), 'a.txt');
    const req = new Request('http://localhost/', { method: 'POST', body: form });
    // Bun fills in the content type lazily: read it before the body is consumed.
    const contentType = req.headers.get('content-type');
    const body = new Uint8Array(await req.arrayBuffer());
    expect(decodeBody(body, contentType)).toEqual({
      ok: true,
      fields: { phone_number: ['5321234567', '5321234568'], error_message: 'Disk dolu: %95 ş' },
    });
  });

  it("reads Uptime Kuma's form-data mode: one field `data` holding the JSON", () => {
    const json = '{"heartbeat":{"status":0},"monitor":{"id":1},"msg":"[a] down"}';
    const raw = `--X-BOUNDARY\r\nContent-Disposition: form-data; name="data"\r\n\r\n${json}\r\n--X-BOUNDARY--\r\n`;
    expect(decodeBody(bytes(raw), 'multipart/form-data; boundary=X-BOUNDARY')).toEqual({ ok: true, fields: { data: json } });
  });

  it('refuses a multipart body without a boundary, or whose boundary never appears or never closes', () => {
    expect(decodeBody(bytes('a'), 'multipart/form-data')).toEqual({ ok: false });
    expect(decodeBody(bytes('no parts here'), 'multipart/form-data; boundary=B')).toEqual({ ok: false });
    expect(decodeBody(bytes('--B\r\nContent-Disposition: form-data; name="a"\r\n\r\nx'), 'multipart/form-data; boundary=B')).toEqual({ ok: false });
  });

  it('refuses a part that is not valid UTF-8', () => {
    const head = bytes('--B\r\nContent-Disposition: form-data; name="m"\r\n\r\n');
    const tail = bytes('\r\n--B--\r\n');
    const raw = new Uint8Array([...head, 0xff, ...tail]);
    expect(decodeBody(raw, 'multipart/form-data; boundary=B')).toEqual({ ok: false });
  });
});

describe('decodeBody: lenient % in form bodies (PRTG sends placeholders raw)', () => {
  it('keeps a % that does not start an escape, decodes the escapes around it', () => {
    expect(decodeBody(bytes('error_message=CPU+95%+on+%C5%9Fube&phone_number=5321234567'), 'application/x-www-form-urlencoded')).toEqual({
      ok: true,
      fields: { error_message: 'CPU 95% on şube', phone_number: '5321234567' },
    });
    expect(decodeBody(bytes('error_message=%25%zz%'), 'application/x-www-form-urlencoded')).toEqual({ ok: true, fields: { error_message: '%%zz%' } });
  });
});
