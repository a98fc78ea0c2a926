import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnsConfirmer, globToRegExp } from './sns-confirm';

/**
 * A local HTTPS server with a throwaway self-signed certificate (made here with openssl), and
 * a fetch that trusts exactly that certificate: TLS checks stay on, as in production.
 */
let dir: string;
let cert: string;
let server: ReturnType<typeof Bun.serve>;
let plain: ReturnType<typeof Bun.serve>;
const hits: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sns-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const handler = (req: Request) => {
    hits.push(req.url);
    return new Response('<ConfirmSubscriptionResponse/>', { status: 200 });
  };
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') }, fetch: handler });
  plain = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
});

afterAll(() => {
  server?.stop(true);
  plain?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

function confirmer(allowedHosts: string[], autoConfirm = true) {
  const lines: { level: string; o: object; msg: string }[] = [];
  const c = createSnsConfirmer({
    autoConfirm,
    allowedHosts,
    log: { info: (o, msg) => lines.push({ level: 'info', o, msg }), warn: (o, msg) => lines.push({ level: 'warn', o, msg }) },
    // Trust the test's own certificate only; nothing here turns verification off.
    fetch: (url, init) => fetch(url, { ...init, tls: { ca: cert } } as RequestInit),
    timeoutMs: 5000,
  });
  return { c, lines };
}

const path = '/?Action=ConfirmSubscription&TopicArn=arn:aws:sns:us-west-2:123456789012:MyTopic&Token=abc';

describe('SNS subscription confirmation', () => {
  it('GETs the SubscribeURL once for an allowed https host, and logs the outcome', async () => {
    hits.length = 0;
    const { c, lines } = confirmer(['localhost']);
    const { decision, done } = c.confirm(`https://localhost:${server.port}${path}`, 'arn:topic');
    expect(decision).toBe('confirming');
    await done;
    expect(hits).toEqual([`https://localhost:${server.port}${path}`]);
    expect(lines).toEqual([{ level: 'info', o: { topicArn: 'arn:topic', status: 200 }, msg: 'sns subscription confirmed' }]);
  });

  it('never GETs a host that does not match, and logs the URL for an operator', async () => {
    hits.length = 0;
    const { c, lines } = confirmer(['sns.*.amazonaws.com', 'localhost']);
    const url = `https://127.0.0.1:${server.port}${path}`;
    const { decision, done } = c.confirm(url, 'arn:topic');
    await done;
    expect(decision).toBe('host_not_allowed');
    expect(hits).toEqual([]);
    expect(lines).toEqual([{ level: 'warn', o: { subscribeUrl: url, topicArn: 'arn:topic', reason: 'host_not_allowed' }, msg: 'sns subscription not confirmed automatically' }]);
  });

  it('never GETs plain http, even on an allowed host', async () => {
    hits.length = 0;
    const { c } = confirmer(['localhost']);
    const { decision, done } = c.confirm(`http://localhost:${plain.port}${path}`, 'arn:topic');
    await done;
    expect(decision).toBe('not_https');
    expect(hits).toEqual([]);
  });

  it('with sns_auto_confirm off, only logs', async () => {
    hits.length = 0;
    const { c } = confirmer(['localhost'], false);
    const { decision, done } = c.confirm(`https://localhost:${server.port}${path}`, 'arn:topic');
    await done;
    expect(decision).toBe('auto_confirm_off');
    expect(hits).toEqual([]);
  });

  it('a certificate nobody vouches for fails the GET (logged), it is not trusted', async () => {
    const lines: { msg: string }[] = [];
    const c = createSnsConfirmer({ autoConfirm: true, allowedHosts: ['localhost'], log: { info: (_o, msg) => lines.push({ msg }), warn: (_o, msg) => lines.push({ msg }) } });
    hits.length = 0;
    await c.confirm(`https://localhost:${server.port}${path}`, 'arn:topic').done;
    expect(hits).toEqual([]);
    expect(lines).toEqual([{ msg: 'sns subscription confirmation failed' }]);
  });
});

describe('globToRegExp', () => {
  it('matches within one label only', () => {
    const re = globToRegExp('sns.*.amazonaws.com');
    expect(re.test('sns.us-west-2.amazonaws.com')).toBe(true);
    expect(re.test('sns.evil.com.amazonaws.com')).toBe(false);
    expect(re.test('sns.us-west-2.amazonaws.com.evil.net')).toBe(false);
    expect(re.test('snsXus-west-2.amazonaws.com')).toBe(false);
  });
});
