import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { configSchema } from '../config';
import type { IntakeResult } from '../intake';
import { handleAlert } from './alert-route';
import type { HttpDeps } from './deps';
import { createRateLimiter } from './rate-limit';
import { createServices } from '../services';

async function depsWithLogLines() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  const clock = manualClock();
  const store = await tempStore(clock);
  const config = configSchema.parse({ http: { rate_limit_per_minute: 0 } });
  const services = createServices({ store, clock, config });
  const deps: HttpDeps = {
    store,
    clock,
    log,
    config,
    intake: { store, clock, timeZone: 'Europe/Istanbul', alerts: services.alerts },
    services,
    rateLimiter: createRateLimiter(0, clock),
  };
  return { deps, lines };
}

const queued = (callId: string): IntakeResult => ({
  outcome: { code: 'QUEUED', callIds: [callId], endpoint: 'webhook' },
  accountId: 'acc_1',
  credentialId: 'cred_1',
  replayed: false,
});

const post = (id: string) =>
  new Request('http://localhost/webhook/receive', { method: 'POST', body: '{}', headers: { 'x-request-id': id } });

describe('alert route', () => {
  it('logs the requests queued in one turn in one "calls queued" line, each request id once', async () => {
    const { deps, lines } = await depsWithLogLines();
    const ctx = (id: string) => ({ request: post(id), socketAddress: '127.0.0.1', query: {} });
    const answers = await Promise.all([
      handleAlert(deps, '/webhook/receive', ctx('req-a'), async () => queued('call_a')),
      handleAlert(deps, '/webhook/receive', ctx('req-b'), async () => queued('call_b')),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    await new Promise((r) => setImmediate(r));
    const logged = lines.filter((l) => l.msg === 'calls queued');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.requests).toEqual([
      { requestId: 'req-a', endpoint: '/webhook/receive', accountId: 'acc_1', callIds: ['call_a'] },
      { requestId: 'req-b', endpoint: '/webhook/receive', accountId: 'acc_1', callIds: ['call_b'] },
    ]);
    await deps.store.flush();
    expect((await deps.store.history.list()).map((h) => h.requestId).sort()).toEqual(['req-a', 'req-b']);
    await deps.store.close();
  });
});
