import { verifySignature } from '../../src/signing';

export interface ReceivedCallback {
  at: number;
  /** The event as sent (`id`, `type`, `alert`, `call`, …). */
  event: any;
  signatureValid: boolean;
  answered: number | 'hung';
}

/**
 * A monitoring tool's callback endpoint on 127.0.0.1: keeps every event with whether its
 * signature verified under `secret()`, and answers what `mode(n)` says for the n-th request
 * (a status, or 'hang': never answers). Stop it with `stop()`.
 */
export function startCallbackReceiver(secret: () => string, mode: (n: number) => number | 'hang' = () => 200) {
  const received: ReceivedCallback[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const body = new Uint8Array(await req.arrayBuffer());
      const signatureValid = verifySignature(secret(), { timestamp: req.headers.get('x-timestamp'), signature: req.headers.get('x-signature') }, body, Date.now());
      const answer = mode(received.length);
      received.push({ at: Date.now(), event: JSON.parse(new TextDecoder().decode(body)), signatureValid, answered: answer === 'hang' ? 'hung' : answer });
      if (answer === 'hang') return new Promise<Response>(() => undefined);
      return new Response(null, { status: answer });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook?token=t`, received, stop: () => server.stop(true) };
}
