import { describe, expect, it } from 'vitest';
import { createLogger } from './index';
import { redactQueries } from './redact';

describe('log redaction', () => {
  it('drops the query of every URL in a line, absolute or a bare path', () => {
    expect(redactQueries('GET http://h:8080/webhook/receive?key=s3cr3t&to=1 failed')).toBe('GET http://h:8080/webhook/receive?[redacted] failed');
    expect(redactQueries('/webhook/receive?key=s3cr3t')).toBe('/webhook/receive?[redacted]');
    expect(redactQueries('why? no url here')).toBe('why? no url here');
  });

  it('every line the logger writes is redacted and stays valid JSON', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (s: string) => lines.push(s) });
    log.error({ err: new TypeError('Invalid URL "http://[bad/webhook/receive?key=s3cr3t"') }, 'request failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('s3cr3t');
    expect(JSON.parse(lines[0]!).err.message).toBe('Invalid URL "http://[bad/webhook/receive?[redacted]"');
  });
});
