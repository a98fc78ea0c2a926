import { record, sentences, str } from './speech';
import type { SourceAdapter, SourceInput } from './types';

/**
 * Uptime Kuma's webhook provider (server/notification-providers/webhook.js): `{heartbeat,
 * monitor, msg}` as JSON, or with "form-data" chosen, one multipart field `data` holding that JSON.
 * heartbeat.status: 0 down, 1 up, 2 pending, 3 maintenance.
 */
export const uptimeKuma: SourceAdapter = {
  name: 'uptime-kuma',
  matches: (input) => {
    const b = payload(input);
    return 'heartbeat' in b && 'monitor' in b && typeof b.msg === 'string';
  },
  read: (input) => {
    const b = payload(input);
    const monitor = record(b.monitor);
    const id = str(monitor.id) ?? str(monitor.name);
    const text = listenable(str(b.msg) ?? '');
    return {
      kind: 'alert',
      source: 'uptime-kuma',
      // A bare monitor id ("29") would collide with keys other tools send; name the source.
      key: id ? `uptime-kuma:${id}` : null,
      texts: text ? [text] : [],
      resolved: record(b.heartbeat).status === 1,
    };
  },
};

/** The body itself, or the JSON in its `data` field when Uptime Kuma sent multipart form data. */
function payload({ body }: SourceInput): Record<string, unknown> {
  if (typeof body.data === 'string' && body.data.trimStart().startsWith('{') && !('heartbeat' in body)) {
    try {
      return record(JSON.parse(body.data));
    } catch {
      return body;
    }
  }
  return body;
}

/** "[Test] [🔴 Down] getaddrinfo ENOTFOUND test.com" → "Test. Down. getaddrinfo ENOTFOUND test.com." */
export function listenable(msg: string): string {
  const plain = msg.replace(/[\p{Extended_Pictographic}\u{FE0F}]/gu, '').replace(/\[\s*([^\]]*?)\s*\]/g, '$1.');
  return sentences([plain.replace(/\.\s*\./g, '.')]);
}
