import { Database } from 'bun:sqlite';
import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { post } from '../helpers/http';

const LOCK_WAIT_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times one GET; a refused connection or a timeout counts as 10 s. */
async function timedGet(url: string): Promise<{ ms: number; status: number }> {
  const t0 = performance.now();
  const status = await fetch(url, { signal: AbortSignal.timeout(10_000) }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
  return { ms: status === 0 ? 10_000 : performance.now() - t0, status };
}

// docs/high-availability.md (no database wait blocks the event loop) holds on SQLite too: while
// another process (this test, as the CLI or an operator's sqlite3 shell would) holds the database's
// write lock, the appliance waits for it without stopping: docs/operations.md "Configuration",
// store.busy_timeout_ms.
describe('SQLite: the write lock held by another process', () => {
  it('/metrics, /healthz and a panel file answer within 100 ms; a webhook answers 503 Database unavailable after store.busy_timeout_ms, or 200 once the lock is free', async () => {
    const dir = applianceDir({ store: { busy_timeout_ms: LOCK_WAIT_MS } });
    const cred = provision(dir, 'starter');
    const app = await dir.start();
    const holder = new Database(dir.store.path);
    try {
      const webhook = (message: string) => post(`${app.url}/webhook/receive?key=${cred.webhookKey}`, { phone_number: '5321234567', error_message: message });
      holder.run('BEGIN IMMEDIATE');
      const t0 = performance.now();
      const refused = webhook('sent while locked').then((r) => ({ ...r, ms: performance.now() - t0 }));

      // Everything that needs no write keeps answering while the webhook waits.
      const answers: { path: string; ms: number; status: number }[] = [];
      let healthz: unknown;
      for (let i = 0; performance.now() - t0 < LOCK_WAIT_MS - 100; i++) {
        for (const path of ['/metrics', '/panel/assets/panel.css']) answers.push({ path, ...(await timedGet(`${app.url}${path}`)) });
        if (i === 5) healthz = await fetch(`${app.url}/healthz`).then(async (r) => ({ status: r.status, body: await r.json() }));
        await sleep(25);
      }
      expect(answers.length).toBeGreaterThan(20);
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(100);
      // It takes no write: /healthz says so (docs/http-api.md "GET /healthz").
      expect(healthz).toMatchObject({ status: 503, body: { code: 'database_unavailable', checks: { database: 'down' } } });

      const r = await refused;
      expect(r.status).toBe(503);
      expect(r.json).toEqual({ status: 'error', message: 'Database unavailable', code: 'database_unavailable' });
      expect(r.ms).toBeGreaterThanOrEqual(LOCK_WAIT_MS - 10);
      expect(r.ms).toBeLessThan(LOCK_WAIT_MS + 500);

      // A webhook that arrives while it is held, and the lock let go 300 ms later: 200.
      const accepted = webhook('sent before the lock went');
      await sleep(300);
      holder.run('COMMIT');
      const ok = await accepted;
      expect(ok.status).toBe(200);
      const messages = holder.query('SELECT message FROM calls').values();
      expect(messages).toEqual([['sent before the lock went']]); // nothing of the 503
      expect(app.output()).toContain('request refused: database unavailable');
    } finally {
      if (holder.inTransaction) holder.run('ROLLBACK');
      holder.close();
      await app.stop();
    }
  });
});
