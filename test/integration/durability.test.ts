import { describe, expect, it } from 'vitest';
import { applianceDir, provision } from '../helpers/appliance';
import { post } from '../helpers/http';

describe('accepted means durable', () => {
  it('a restart keeps accounts, keys, credit and queued calls', async () => {
    const dir = applianceDir();
    const cred = provision(dir, 'starter');
    let app = await dir.start();
    const r = await post(`${app.url}/webhook/receive?key=${cred.webhookKey}`, {
      phone_number: '5321234567,5321234568',
      error_message: 'x',
    });
    expect(r.status).toBe(200);
    expect(await app.stop()).toBe(0); // SIGTERM: a clean stop

    app = await dir.start();
    try {
      const again = await post(`${app.url}/api/call`, {
        api_key: cred.apiKey,
        api_secret: cred.apiSecret,
        phone_number: '5321234569',
        error_message: 'y',
      });
      expect(again.status).toBe(200); // keys survived
      expect(dir.cliJson(['credit', 'show', cred.accountId])).toMatchObject({ used: 3, remaining: 12 });
      const ids = dir.cliJson(['calls', 'list', '--account', cred.accountId]).map((c: any) => c.id);
      expect(ids).toEqual(expect.arrayContaining([...r.json.call_ids, again.json.call_id]));
    } finally {
      await app.stop();
    }
  });

  it('a process killed (SIGKILL) right after a 200 still has that call on restart', async () => {
    const dir = applianceDir();
    const cred = provision(dir, 'enterprise');
    const app = await dir.start();
    const url = `${app.url}/webhook/receive?key=${cred.webhookKey}`;
    // Many in flight at once, so the kill lands while later batches are being written.
    const pending = Array.from({ length: 40 }, (_, i) =>
      post(url, { phone_number: `53212345${String(i).padStart(2, '0')}`, error_message: 'x' }).catch(() => null),
    );
    const first = await Promise.race(pending.filter(Boolean));
    await app.kill();
    const answered = (await Promise.all(pending)).filter((r) => r?.status === 200);
    expect(first?.status).toBe(200);
    expect(answered.length).toBeGreaterThan(0);

    const calls = dir.cliJson(['calls', 'list', '--account', cred.accountId, '--limit', '100']);
    const stored = new Set(calls.map((c: any) => c.id));
    for (const r of answered) for (const id of r!.json.call_ids) expect(stored.has(id)).toBe(true);
    // Credit and calls were committed together: what is charged is what is queued.
    expect(dir.cliJson(['credit', 'show', cred.accountId]).used).toBe(calls.length);
  });
});
