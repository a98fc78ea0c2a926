import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { sipSection } from '../config/sections/sip';
import { silentLogger } from '../log';
import { startKamailio, type Peer } from '../../test/helpers/pbx';
import { freePort } from '../../test/helpers/ports';
import { startSipp, type SippPeer } from '../../test/helpers/sipp';
import { until } from '../../test/helpers/until';
import { createTelephone, type InboundSipText, type Telephone } from '.';

/**
 * Texts through the PBX (docs/second-path.md "Texts through the PBX"): SIP MESSAGE (RFC 3428)
 * through kamailio with digest authentication to a sipp phone that checks the text, and a reply
 * from that phone coming back through kamailio to the registered trunk.
 */
let stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const s of stops.reverse()) await s();
  stops = [];
});

async function rig(text: string) {
  const phone: SippPeer = await startSipp({ scenario: 'message-receive.xml', fill: { text } });
  stops.push(() => phone.stop());
  const pbx: Peer = await startKamailio({ target: `127.0.0.1:${phone.port}`, auth: true, user: 'voicealert', password: 's3cret', qop: true });
  stops.push(() => pbx.stop());
  const rtp = await freePort();
  const inbound: InboundSipText[] = [];
  const wire: string[] = [];
  const sip = sipSection.parse({
    server: `127.0.0.1:${pbx.port}`,
    username: 'voicealert',
    password: 's3cret',
    register: true,
    local_address: '127.0.0.1',
    local_port: 0,
    rtp_ports: `${rtp}-${rtp + 20}`,
    t1_ms: 100,
    t2_ms: 800,
  });
  const telephone: Telephone = createTelephone(sip, 100, { log: silentLogger(), onText: (t) => inbound.push(t), onWire: (d, m) => wire.push(`${d} ${m}`) });
  await telephone.start();
  stops.push(() => telephone.stop());
  return { phone, pbx, telephone, inbound, wire };
}

describe('SIP MESSAGE through the trunk', () => {
  it('sends a text through kamailio with digest authentication; the phone receives it', async () => {
    const text = 'ALERT db1 disk full, code K7Q2: reply 1 to acknowledge';
    const { phone, pbx, telephone, wire } = await rig('ALERT db1 disk full, code K7Q2');
    expect(telephone.registered()).toBe(true);
    const r = await telephone.sendText('5321234567', text);
    expect(r).toMatchObject({ answered: true, code: 200 });
    expect(await phone.exited).toBe(0); // it checked the body and the Content-Type
    // (kamailio's log arrives through a pipe: give it a moment under load.)
    await until('kamailio took the credentials', () => /accepted MESSAGE credentials: Digest .*username="voicealert"/.test(pbx.output()), 5000, 20);
    const sent = wire.filter((m) => m.startsWith('out MESSAGE '));
    expect(sent.length).toBe(2); // challenged (407), then with credentials
    expect(sent[1]).toMatch(/^Proxy-Authorization: Digest /m);
    expect(sent[1]).toMatch(/^Content-Type: text\/plain;charset=UTF-8$/m);
    expect(sent[1]!.endsWith(`\r\n\r\n${text}`)).toBe(true);
  });

  it('a Turkish text goes as UTF-8, byte for byte', async () => {
    const { telephone, wire, phone } = await rig('Disk dolu');
    const text = 'Disk dolu: İstanbul çağrı merkezi, şimdi ğüöı';
    expect(await telephone.sendText('5321234567', text)).toMatchObject({ answered: true, code: 200 });
    expect(await phone.exited).toBe(0);
    const last = wire.filter((m) => m.startsWith('out MESSAGE ')).at(-1)!;
    expect(Number(/^Content-Length: (\d+)$/m.exec(last)![1])).toBe(Buffer.byteLength(text, 'utf8'));
  });

  it('a reply texted from the phone comes back through kamailio to the registered trunk', async () => {
    const { pbx, inbound } = await rig('x');
    const reply = await startSipp({ scenario: 'message-send.xml', fill: { from: '905321234567', body: 'ack K7Q2' }, extra: [`127.0.0.1:${pbx.port}`, '-s', 'voicealert'] });
    stops.push(() => reply.stop());
    expect(await reply.exited).toBe(0); // 200 came back
    await until('text handed on', () => inbound.length === 1, 5000, 20);
    expect(inbound[0]!.trunk).toBe('default');
    expect(inbound[0]!.from).toBe('905321234567');
    expect(inbound[0]!.body.trim()).toBe('ack K7Q2');
  });

  it('a MESSAGE from an address that is not the trunk is refused with 403 and handed on to nobody', async () => {
    const { telephone, inbound } = await rig('x');
    const s = createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.2', () => r()));
    stops.push(async () => void s.close());
    const answers: string[] = [];
    s.on('message', (m) => answers.push(m.toString()));
    const port = s.address().port;
    const body = '1';
    const msg = [
      `MESSAGE sip:voicealert@127.0.0.1:${telephone.localPort()} SIP/2.0`,
      `Via: SIP/2.0/UDP 127.0.0.2:${port};branch=z9hG4bKspoof1;rport`,
      'From: <sip:905321234567@127.0.0.2>;tag=spoof',
      `To: <sip:voicealert@127.0.0.1>`,
      'Call-ID: spoof-1',
      'CSeq: 1 MESSAGE',
      'Max-Forwards: 70',
      'Content-Type: text/plain',
      `Content-Length: ${body.length}`,
      '',
      body,
    ].join('\r\n');
    s.send(msg, telephone.localPort(), '127.0.0.1');
    await until('an answer', () => answers.length > 0, 5000, 20);
    expect(answers[0]).toMatch(/^SIP\/2\.0 403 /);
    expect(inbound).toEqual([]);
  });
});
