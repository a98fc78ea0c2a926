/**
 * PBX behaviours of issue 11 (items 5, 6, 7, 9), each against a sipp scenario that sends
 * what the real PBX sends; asserting on the wire and on the reported outcome.
 */
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testAudio } from '../../test/helpers/test-audio';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { dialTest, header, recorder, testPhone, type TestPhone } from '../../test/helpers/test-phone';

let peers: SippPeer[] = [];
let phones: TestPhone[] = [];
afterEach(async () => {
  await Promise.all(phones.map((p) => p.phone.stop()));
  await Promise.all(peers.map((p) => p.stop()));
  peers = [];
  phones = [];
});

async function against(scenario: string, extra: Record<string, unknown> = {}, sipp: Parameters<typeof startSipp>[0] | object = {}) {
  const peer = await startSipp({ scenario, ...sipp });
  peers.push(peer);
  const p = await testPhone(peer.port, extra);
  phones.push(p);
  return { peer, ...p };
}

describe('digest for two realms (RFC 3261 §22.3)', () => {
  it('answers a 401 (PBX realm) and then a 407 (proxy realm) with both credentials', async () => {
    const { peer, phone, sent } = await against('auth-401-407.xml', { password: 'secret' });
    const { progress } = recorder();
    expect(await dialTest(phone, progress)).toMatchObject({ code: 'COMPLETED', status: 200 });
    expect(await peer.exited).toBe(0); // it verified the digest for realm pbx and saw realm proxy
    const invites = sent('INVITE');
    expect(invites).toHaveLength(3);
    expect(header(invites[2]!, 'Authorization')).toContain('realm="pbx"');
    expect(header(invites[2]!, 'Proxy-Authorization')).toContain('realm="proxy"');
  });
});

describe('302 redirects (RFC 3261 §8.1.3.4)', () => {
  it('calls the Contact of a 302 through the same trunk and plays there', async () => {
    const { peer, phone, lines } = await against('redirect.xml', {}, { calls: 2, fill: { target: '05559876543' } });
    const { events, progress } = recorder();
    const t0 = Date.now();
    expect(await dialTest(phone, progress)).toMatchObject({ code: 'COMPLETED', status: 200 });
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(await peer.exited).toBe(0);
    // The tel: Contact (q=0.9) is not SIP: the sip: one is called.
    expect(lines().filter((l) => l.startsWith('out INVITE'))).toEqual([
      'out INVITE sip:5321234567@127.0.0.1 SIP/2.0',
      `out INVITE sip:05559876543@127.0.0.1:${peer.port} SIP/2.0`,
    ]);
    expect(events).toEqual(['ringing 180 Ringing', 'answered PCMU']);
  });

  it('a redirect loop ends after 3 hops at once with the 302, not after the ring timeout', async () => {
    const { peer, phone, sent } = await against('redirect-loop.xml', {}, { calls: 4 });
    const { progress } = recorder();
    const t0 = Date.now();
    expect(await dialTest(phone, progress, { ringTimeoutMs: 20_000 })).toEqual({
      code: 'SIP_FINAL',
      status: 302,
      reason: 'Moved Temporarily (redirect not followed: more than 3 redirects)',
    });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(sent('INVITE')).toHaveLength(4);
    expect(await peer.exited).toBe(0);
  });
});

describe('caller identity and outbound proxy (issue 11 item 9)', () => {
  it('sends INVITE to sip.outbound_proxy with Route ;lr, P-Asserted-Identity and Privacy', async () => {
    const peer = await startSipp({ scenario: 'identity.xml', fill: { domain: 'pbx.example.net' } });
    peers.push(peer);
    const p = await testPhone(0, {
      server: 'pbx.example.net:5060',
      outbound_proxy: `127.0.0.1:${peer.port}`,
      pai: '+902120000000',
      privacy: 'id',
    });
    phones.push(p);
    const { progress } = recorder();
    expect(await dialTest(p.phone, progress)).toMatchObject({ code: 'COMPLETED', status: 200 });
    expect(await peer.exited).toBe(0); // it checked the Request-URI, Route, P-Asserted-Identity and Privacy
    const invite = p.sent('INVITE')[0]!;
    expect(header(invite, 'Route')).toBe(`<sip:127.0.0.1:${peer.port};lr>`);
    expect(header(invite, 'P-Asserted-Identity')).toBe('"Voice Alert" <sip:+902120000000@pbx.example.net>');
    expect(header(invite, 'Privacy')).toBe('id');
  });

  it('sends no identity headers and no Route when none are configured', async () => {
    const { phone, sent } = await against('answer.xml');
    const { progress } = recorder();
    expect(await dialTest(phone, progress)).toMatchObject({ code: 'COMPLETED' });
    const invite = sent('INVITE')[0]!;
    expect([header(invite, 'Route'), header(invite, 'P-Asserted-Identity'), header(invite, 'Privacy')]).toEqual([null, null, null]);
  });
});

describe('requests from the PBX (RFC 3261 §18.2.2, §17.2.2)', () => {
  it('answers a BYE from another address where its Via/rport says, and its retransmission with the same 200', async () => {
    const { peer, phone, messages } = await against('answer-bye-elsewhere.xml');
    // The cluster's other node: its own socket and port, not sip.server.
    const node = createSocket('udp4');
    const got: string[] = [];
    node.on('message', (m) => got.push(m.toString()));
    await new Promise<void>((r) => node.bind(0, '127.0.0.1', r));
    const { progress } = recorder();
    const call = dialTest(phone, progress, { audio: async () => testAudio(500) });
    await expect.poll(() => messages.some((m) => m.startsWith('in SIP/2.0 200')), { timeout: 3000 }).toBe(true);
    const ok = messages.find((m) => m.startsWith('in SIP/2.0 200'))!.slice(3);
    const contact = /<(sip:[^>]+)>/.exec(header(messages.find((m) => m.startsWith('out INVITE'))!, 'Contact')!)![1];
    const bye = [
      `BYE ${contact} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.1:${node.address().port};branch=z9hG4bKnode2bye;rport`,
      'Max-Forwards: 70',
      `From: ${header(ok, 'To')}`,
      `To: ${header(ok, 'From')}`,
      `Call-ID: ${header(ok, 'Call-ID')}`,
      'CSeq: 102 BYE',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    const send = () => new Promise<void>((r) => node.send(bye, phone.localPort(), '127.0.0.1', () => r()));
    await send();
    await expect.poll(() => got.length, { timeout: 2000 }).toBe(1);
    // Our 200 got lost on the way: the node sends the BYE again and must get the same 200.
    await send();
    await expect.poll(() => got.length, { timeout: 2000 }).toBe(2);
    expect(got.map((m) => m.split('\r\n')[0])).toEqual(['SIP/2.0 200 OK', 'SIP/2.0 200 OK']);
    expect(got[1]).toBe(got[0]);
    // The far end hung up 10 s into a message of 500 frames: not heard once in full.
    expect(await call).toMatchObject({ code: 'INTERRUPTED', reason: 'far end hung up before the message was played once in full' });
    node.close();
    expect(await peer.exited).toBe(0);
  });
});

describe('inband DTMF (issue 11 item 8)', () => {
  /** sox-made tones as the far end's audio: silence, then each key 200 ms with 300 ms between. */
  function toneFile(codec: 'PCMU' | 'PCMA', keys: string[]): string {
    const pairs: Record<string, [number, number]> = { '1': [697, 1209], '2': [697, 1336], '3': [697, 1477] };
    const encoding = codec === 'PCMA' ? 'a-law' : 'u-law';
    const raw = (seconds: number, f?: [number, number]) =>
      execFileSync('sox', ['-n', '-r', '8000', '-c', '1', '-e', encoding, '-t', 'raw', '-', ...(f ? ['synth', `${seconds}`, 'sine', `${f[0]}`, 'synth', `${seconds}`, 'sine', 'mix', `${f[1]}`, 'gain', '-10'] : ['trim', '0', `${seconds}`])]);
    const file = join(mkdtempSync(join(tmpdir(), 'va-tones-')), `keys.${codec === 'PCMA' ? 'al' : 'ul'}`);
    writeFileSync(file, Buffer.concat([raw(0.4), ...keys.flatMap((k) => [raw(0.2, pairs[k]!), raw(0.3)])]));
    return file;
  }

  it.each([
    ['PCMU', 0],
    ['PCMA', 8],
  ] as const)('hears keypad 2 then 1 as tones in %s audio when no telephone-event was negotiated', async (codec, pt) => {
    const { peer, phone } = await against('inband-dtmf.xml', {}, { keys: { codec_pt: pt, codec_name: codec }, fill: { tone_file: toneFile(codec, ['2', '1']) } });
    const { events, progress } = recorder();
    const outcome = await dialTest(phone, progress, { audio: async () => testAudio(400) });
    expect(outcome).toMatchObject({ code: 'ACKNOWLEDGED' });
    expect(events).toEqual(['ringing 180 Ringing', `answered ${codec}`, 'digit 2', 'digit 1']);
    expect(await peer.exited).toBe(0);
  });
});
