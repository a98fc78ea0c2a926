import { withEngine } from '../../test/helpers/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { testAudioSource } from '../../test/helpers/test-audio';
import type { CallOutcome } from '../call-model';
import { createDialer } from '../calls/dialer';
import { configSchema } from '../config/schema';
import { silentLogger } from '../log';
import type { DialRequest } from '../sip';
import type { Store } from '../store';
import { createMaintenanceService } from '.';
import { until } from '../../test/helpers/until';

// docs/on-call.md "Maintenance windows": a call already ringing when its window starts is cancelled
// before the answer (calls/dialer.ts looks at the alerts of the calls it holds).
let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe('a window starting while its call rings', () => {
  it('the attempt is aborted before the answer, the call ends cancelled, and it is not dialled again', async () => {
    const clock = manualClock(Date.now());
    const store: Store = await tempStore(clock);
    const dials: DialRequest[] = [];
    // A phone that rings until the attempt is called off.
    const dial = (r: DialRequest) =>
      new Promise<CallOutcome>((resolve) => {
        dials.push(r);
        r.progress.ringing(180, 'Ringing');
        r.signal!.addEventListener('abort', () => resolve({ code: 'ABORTED', status: null, reason: 'cancelled' }));
      });
    const dialer = withEngine(createDialer({
      store,
      dial,
      audio: testAudioSource(5),
      clock,
      log: silentLogger(),
      calls: configSchema.parse({ calls: { per_number_gap_s: 0, retry_delays_s: [0], max_attempts: 3 } }).calls,
      timeZone: 'Europe/Istanbul',
      leaseMs: 5000,
      pollMs: 50,
    }));
    cleanup = async () => {
      await dialer.stop();
      await store.close();
    };
    const account = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
    const { alertId, callId } = await store.transaction(async (tx) => {
      const alertId = await tx.alerts.create({ accountId: account.id, credentialId: null, key: 'db-1', source: 'api', message: 'disk full' }, clock());
      const [id] = await tx.calls.enqueue([{ accountId: account.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'disk full', alertId }], clock());
      return { alertId, callId: id! };
    });
    dialer.start();
    await until('the call rings', async () => (await store.calls.get(callId))!.state === 'ringing', 5_000, 20);

    const w = await createMaintenanceService({ store, clock, timeZone: 'Europe/Istanbul' }).create(account.id, {
      start: new Date(clock()).toISOString(),
      end: new Date(clock() + 3_600_000).toISOString(),
      match: ['key=db-'],
    });
    expect(w.ok).toBe(true);
    await until('the call is cancelled', async () => (await store.calls.get(callId))!.state === 'cancelled', 5_000, 20);
    await new Promise((r) => setTimeout(r, 300)); // several polls: it is not claimed again
    expect(dials).toHaveLength(1);
    // Still firing as far as anyone knows: open, for the next repeat after the window.
    expect((await store.alerts.get(alertId))!.state).toBe('open');
  });
});
