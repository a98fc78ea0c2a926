import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAlertActions } from '../../src/alerts';
import type { IntakeDeps, IntakeRequest } from '../../src/intake';
import { sign } from '../../src/signing';
import { createStore, type CreateStoreOptions, type Store } from '../../src/store';
import { tracked } from './open-stores';
import { testStoreUrlAsync } from './postgres';

/** A clock the test moves by hand. */
export function manualClock(start: string | number = '2026-11-15T12:00:00Z') {
  let now = typeof start === 'number' ? start : Date.parse(start);
  const clock = () => now;
  clock.set = (t: string | number) => (now = typeof t === 'number' ? t : Date.parse(t));
  clock.advance = (ms: number) => (now += ms);
  return clock;
}

/**
 * A real store on a temporary file (WAL and group commit behave as in production), or on
 * a fresh PostgreSQL database when the suite runs in the PostgreSQL project.
 */
export async function tempStore(clock: () => number, options: Pick<CreateStoreOptions, 'onCommit' | 'timeoutMs'> = {}): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'va-store-'));
  return tracked(await createStore({ path: join(dir, 'voice-alert.db'), url: await testStoreUrlAsync(), busyTimeoutMs: 1000, clock, ...options }));
}

export function intakeDeps(store: Store, clock: () => number, timeZone = 'Europe/Istanbul'): IntakeDeps {
  return { store, clock, timeZone, alerts: createAlertActions({ store, clock, timeZone }) };
}

const enc = new TextEncoder();

/** An intake request with a JSON body (or the given raw text) and optional signing. */
export function jsonRequest(
  body: unknown,
  opts: { contentType?: string | null; webhookKey?: string; signWith?: string; timestamp?: number; idempotencyKey?: string } = {},
): IntakeRequest {
  const raw = enc.encode(typeof body === 'string' ? body : JSON.stringify(body));
  const ts = opts.timestamp !== undefined ? String(opts.timestamp) : null;
  return {
    body: raw,
    contentType: opts.contentType === undefined ? 'application/json' : opts.contentType,
    webhookKey: opts.webhookKey ?? null,
    signature: {
      timestamp: ts,
      signature: opts.signWith && ts ? sign(opts.signWith, ts, raw) : null,
    },
    idempotencyKey: opts.idempotencyKey ?? null,
  };
}
