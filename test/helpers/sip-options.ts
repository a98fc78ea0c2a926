import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';

/**
 * Sends out-of-dialog SIP OPTIONS over UDP to a user agent on 127.0.0.1 and times its final
 * answer (RFC 3261 §11: a UA answers OPTIONS like an INVITE, without the dialog). For tests
 * that time the appliance's SIP signalling while something else (its database) is stuck.
 * `user`: the user part of the appliance's contact (sip.username, default `voice-alert`).
 */
export async function sipOptionsPinger(port: number, user = 'voice-alert'): Promise<{ ping(timeoutMs?: number): Promise<{ ms: number; status: number | null }>; close(): void }> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const own = socket.address().port;
  const waiting = new Map<string, (status: number) => void>();
  socket.on('message', (m) => {
    const text = m.toString('latin1');
    const status = /^SIP\/2\.0 (\d{3})/.exec(text)?.[1];
    const callId = /\r\n(?:Call-ID|i)\s*:\s*([^\r\n]+)/i.exec(text)?.[1]?.trim();
    // Provisional answers are not the answer: only a final one (2xx–6xx) ends the wait.
    if (status && Number(status) >= 200 && callId) waiting.get(callId)?.(Number(status));
  });
  let cseq = 0;
  return {
    ping(timeoutMs = 2000) {
      const callId = `${randomBytes(8).toString('hex')}@127.0.0.1`;
      const branch = `z9hG4bK${randomBytes(8).toString('hex')}`;
      const request = [
        `OPTIONS sip:${user}@127.0.0.1:${port} SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.1:${own};branch=${branch};rport`,
        'Max-Forwards: 70',
        `From: <sip:probe@127.0.0.1:${own}>;tag=${randomBytes(4).toString('hex')}`,
        `To: <sip:${user}@127.0.0.1:${port}>`,
        `Call-ID: ${callId}`,
        `CSeq: ${++cseq} OPTIONS`,
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n');
      const t0 = performance.now();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(callId);
          resolve({ ms: performance.now() - t0, status: null });
        }, timeoutMs);
        waiting.set(callId, (status) => {
          clearTimeout(timer);
          waiting.delete(callId);
          resolve({ ms: performance.now() - t0, status });
        });
        socket.send(request, port, '127.0.0.1');
      });
    },
    close: () => socket.close(),
  };
}
