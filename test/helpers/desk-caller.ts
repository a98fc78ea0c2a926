import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';

/**
 * An engineer's phone calling the voice desk: sipp as a UAC (a scenario written per test),
 * INVITE with SDP naming `mediaPort` (the test's own RTP socket, rtp-phone.ts), then `steps`:
 *
 *   { info: '1234#' }   each key as SIP INFO application/dtmf-relay (Asterisk's form), awaiting its 200
 *   { pause: ms }
 *   { refer: 405 }      waits for the desk's REFER, checks its Refer-To names `referTo`, refuses it
 *                       (405, 501 or 603: each a PBX's way of saying no)
 *   { refer: 202 }      … accepts it and NOTIFYs `SIP/2.0 100 Trying`, then `notify` (default
 *                       `200 OK`: the transfer target answered; `486 Busy Here`: it failed;
 *                       `null`: nothing after the 100, the target never answers)
 *   { hungUp: true }    waits for the desk's BYE and answers it
 *   { bye: true }       hangs up
 *   { refused: 403 }    the INVITE is answered with this final status (and ACKed); nothing else follows
 *   { reinvite: port }  moves its media to `port` by a re-INVITE (RFC 3264 §8), answered and ACKed
 *   { refreshed: true } waits for the desk's session refresh (a re-INVITE, RFC 4028 §7.4) and answers it
 *
 * `telephoneEvent: false` offers no telephone-event: keys then go as tones in the audio.
 * `offer: 'late'` sends the INVITE without SDP and answers the 200's offer in the ACK
 * (RFC 3264 §2); `offer: 'g729'` offers G.729 only. `srtp: true` offers RTP/SAVP keyed by SDES
 * (RFC 4568), and the answer must carry its crypto line.
 */
export type CallerStep =
  | { info: string }
  | { pause: number }
  | { refer: 405 | 501 | 603 | 202; referTo: string; notify?: string | null }
  | { hungUp: true }
  | { bye: true }
  | { refused: number }
  | { reinvite: number }
  | { refreshed: true };

/** A fixed SDES key (RFC 4568 §6.1: 30 bytes of key and salt, base64): the test never decrypts. */
const SDES_KEY = Buffer.alloc(30, 7).toString('base64');

const sdp = (port: number, telephoneEvent: boolean, codec = '0', srtp = false) => `
      v=0
      o=engineer 1 ${port} IN IP4 [local_ip]
      s=-
      c=IN IP4 127.0.0.1
      t=0 0
      m=audio ${port} ${srtp ? 'RTP/SAVP' : 'RTP/AVP'} ${codec}${telephoneEvent ? ' 101' : ''}${srtp ? `\n      a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${SDES_KEY}` : ''}
      a=rtpmap:${codec} ${codec === '18' ? 'G729' : 'PCMU'}/8000${telephoneEvent ? '\n      a=rtpmap:101 telephone-event/8000\n      a=fmtp:101 0-16' : ''}
      a=sendrecv`;

const head = (method: string, cseq: number) => `
      ${method} [next_url] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: "engineer" <sip:engineer@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:{{desk}}@[remote_ip]:[remote_port]>[peer_tag_param]
      Call-ID: [call_id]
      CSeq: ${cseq} ${method}
      [routes]
      Contact: <sip:engineer@[local_ip]:[local_port]>
      Max-Forwards: 70`;

const answer = (status: string, extra = '') => `
  <send><![CDATA[
      SIP/2.0 ${status}
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:engineer@[local_ip]:[local_port]>${extra}
      Content-Length: 0
  ]]></send>`;

export function callerScenario(
  steps: CallerStep[],
  o: { desk: string; mediaPort: number; telephoneEvent?: boolean; offer?: 'g711' | 'late' | 'g729'; srtp?: boolean; sessionExpires?: string },
): string {
  // RFC 4028: what the INVITE asks for, and what the 200 must then name.
  const se = o.sessionExpires ?? '1800';
  const agreed = /refresher=uas/.test(se) ? `${se.split(';')[0]};refresher=uas` : `${se.split(';')[0]};refresher=uac`;
  const te = o.telephoneEvent ?? true;
  const late = o.offer === 'late';
  const body = late ? '      Content-Length: 0\n' : `      Content-Type: application/sdp\n      Content-Length: [len]\n${sdp(o.mediaPort, te, o.offer === 'g729' ? '18' : '0', o.srtp)}`;
  let cseq = 1;
  const parts: string[] = [
    `<send retrans="500"><![CDATA[
      INVITE sip:{{desk}}@[remote_ip]:[remote_port] SIP/2.0
      Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch];rport
      From: "engineer" <sip:engineer@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
      To: <sip:{{desk}}@[remote_ip]:[remote_port]>
      Call-ID: [call_id]
      CSeq: 1 INVITE
      Contact: <sip:engineer@[local_ip]:[local_port]>
      Max-Forwards: 70
      Supported: timer
      Session-Expires: ${se}
${body}
  ]]></send>`,
    '<recv response="100" optional="true"/>',
  ];
  if (steps[0] && 'refused' in steps[0]) {
    parts.push(
      `<recv response="${steps[0].refused}"/>`,
      `<send><![CDATA[
      ACK sip:{{desk}}@[remote_ip]:[remote_port] SIP/2.0
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      CSeq: 1 ACK
      Max-Forwards: 70
      Content-Length: 0
  ]]></send>`,
    );
  } else {
    // RFC 4028 §9: the answer names the interval asked for, the caller refreshing.
    parts.push(
      '<recv response="180" optional="true"/>',
      `<recv response="200" rrs="true"><action><ereg regexp="Session-Expires: *${agreed}" search_in="msg" check_it="true" assign_to="se"/>${
        o.srtp ? '<ereg regexp="m=audio [0-9]+ RTP/SAVP" search_in="body" check_it="true" assign_to="savp"/><ereg regexp="a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:" search_in="body" check_it="true" assign_to="crypto"/>' : ''
      }</action></recv>`,
      late
        ? `<send><![CDATA[${head('ACK', 1)}\n      X-Seen-Session-Expires: [$se]\n      Content-Type: application/sdp\n      Content-Length: [len]\n${sdp(o.mediaPort, te)}\n  ]]></send>`
        : `<send><![CDATA[${head('ACK', 1)}\n      X-Seen-Session-Expires: [$se]${o.srtp ? '\n      X-Seen-Crypto: [$savp] [$crypto]' : ''}\n      Content-Length: 0\n  ]]></send>`,
    );
  }
  for (const step of steps) {
    if ('refused' in step) continue;
    if ('pause' in step) parts.push(`<pause milliseconds="${step.pause}"/>`);
    if ('info' in step)
      for (const key of step.info) {
        parts.push(
          `<send retrans="500"><![CDATA[${head('INFO', ++cseq)}
      Content-Type: application/dtmf-relay
      Content-Length: [len]

      Signal=${key}
      Duration=160
  ]]></send>`,
          '<recv response="200"/>',
        );
      }
    if ('refer' in step) {
      // The Refer-To must name the on-call number (any dial prefix before it allowed).
      parts.push(
        `<recv request="REFER"><action><ereg regexp="Refer-To:.*sip:[0-9]*${step.referTo}@" search_in="msg" check_it="true" assign_to="referto"/></action></recv>`,
      );
      const seen = '\n      X-Seen-Refer-To: [$referto]';
      const refusals = { 405: '405 Method Not Allowed', 501: '501 Not Implemented', 603: '603 Decline' };
      if (step.refer !== 202) parts.push(answer(refusals[step.refer], seen));
      else
        parts.push(
          answer('202 Accepted', seen),
          ...[
            ['100 Trying', 'active;expires=60'],
            ...(step.notify === null ? [] : [[step.notify ?? '200 OK', 'terminated;reason=noresource']]),
          ].flatMap(([status, state]) => [
            `<send retrans="500"><![CDATA[${head('NOTIFY', ++cseq)}
      Event: refer
      Subscription-State: ${state}
      Content-Type: message/sipfrag;version=2.0
      Content-Length: [len]

      SIP/2.0 ${status}
  ]]></send>`,
            '<recv response="200"/>',
          ]),
        );
    }
    if ('reinvite' in step) {
      const n = ++cseq;
      parts.push(
        `<send retrans="500"><![CDATA[${head('INVITE', n)}
      Content-Type: application/sdp
      Content-Length: [len]
${sdp(step.reinvite, te)}
  ]]></send>`,
        '<recv response="100" optional="true"/>',
        '<recv response="200"/>',
        `<send><![CDATA[${head('ACK', n)}\n      Content-Length: 0\n  ]]></send>`,
      );
    }
    if ('refreshed' in step)
      parts.push(
        '<recv request="INVITE" timeout="60000"/>',
        `<send><![CDATA[
      SIP/2.0 200 OK
      [last_Via:]
      [last_From:]
      [last_To:]
      [last_Call-ID:]
      [last_CSeq:]
      Contact: <sip:engineer@[local_ip]:[local_port]>
      Supported: timer
      [last_Session-Expires:]
      Content-Type: application/sdp
      Content-Length: [len]
${sdp(o.mediaPort, te, '0', o.srtp)}
  ]]></send>`,
        '<recv request="ACK"/>',
      );
    if ('hungUp' in step) parts.push('<recv request="BYE"/>', answer('200 OK'));
    if ('bye' in step) parts.push(`<send retrans="500"><![CDATA[${head('BYE', ++cseq)}\n      Content-Length: 0\n  ]]></send>`, '<recv response="200"/>');
  }
  const xml = `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<scenario name="desk-caller">\n  ${parts.join('\n  ')}\n</scenario>\n`;
  return xml.replaceAll('{{desk}}', o.desk);
}

export interface CallerRun {
  /** sipp's exit code: 0 when every call followed the scenario. */
  code: number | null;
  output: string;
}

/**
 * Runs the scenario `calls` times from `ip` (a loopback address) to `to`: one after the
 * other, or `concurrent` at once (started at that many a second).
 */
export async function callDesk(o: {
  to: string;
  desk: string;
  mediaPort: number;
  steps: CallerStep[];
  calls?: number;
  concurrent?: number;
  ip?: string;
  telephoneEvent?: boolean;
  offer?: 'g711' | 'late' | 'g729';
  srtp?: boolean;
  sessionExpires?: string;
}): Promise<CallerRun> {
  const dir = mkdtempSync(join(tmpdir(), 'va-desk-caller-'));
  const scenario = join(dir, 'desk-caller.xml');
  writeFileSync(scenario, callerScenario(o.steps, o));
  const ip = o.ip ?? '127.0.0.1';
  const port = await freePort(ip);
  const args = [o.to, '-sf', scenario, '-i', ip, '-mi', ip, '-p', String(port), '-m', String(o.calls ?? 1), '-l', String(o.concurrent ?? 1), '-r', String(o.concurrent ?? 1), '-nostdin', '-nd', '-recv_timeout', '40000', '-trace_err', '-error_file', join(dir, 'errors.log')];
  const child = spawn('sipp', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  let errors = '';
  try {
    errors = (await Bun.file(join(dir, 'errors.log')).text()).slice(-4000);
  } catch {
    // no errors written
  }
  return { code, output: `${out.slice(-3000)}\n${errors}` };
}
