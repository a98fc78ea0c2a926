import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_STATES } from '../../src/call-model';
import { applianceDir, provision, type ApplianceDir, type RunningAppliance } from '../helpers/appliance';
import { post } from '../helpers/http';
import { freePort } from '../helpers/ports';
import { testStoreUrl } from '../helpers/postgres';
import { startSipp, type SippPeer } from '../helpers/sipp';

// Issue 16 §4: two appliances on one PostgreSQL, one SIGKILLed in the middle of a storm and
// of a ringing call. sipp is the PBX both dial; it logs every INVITE it receives.

let running: RunningAppliance[] = [];
let peers: SippPeer[] = [];
afterEach(async () => {
  for (const r of running) await r.stop().catch(() => undefined);
  for (const p of peers) await p.stop();
  running = [];
  peers = [];
});

async function nodeConfig(sippPort: number, url: string) {
  const rtp = await freePort();
  return {
    store: { url },
    sip: { server: `127.0.0.1:${sippPort}`, local_address: '127.0.0.1', local_port: 0, rtp_ports: `${rtp}-${rtp + 60}`, t1_ms: 50 },
    // A short lease so the survivor takes the dead node's calls quickly; rings outlast it.
    calls: { lease_s: 2, answer_delay_ms: 100, ring_timeout_s: 8, retry_delays_s: [1], max_attempts: 3, repeat: 1, max_concurrent: 20 },
    tts: { voice: 'en', speed_wpm: 450 },
  };
}

/** INVITEs sipp received, by the number dialled: distinct Call-IDs (a retransmission is not a new dial). */
function invitesByNumber(messageLog: string): Map<string, Set<string>> {
  const byNumber = new Map<string, Set<string>>();
  for (const block of messageLog.split(/message received/)) {
    const invite = /^INVITE sip:(\d+)@/m.exec(block);
    const callId = /^Call-ID:\s*(\S+)/im.exec(block);
    if (!invite || !callId) continue;
    const set = byNumber.get(invite[1]!) ?? new Set<string>();
    set.add(callId[1]!);
    byNumber.set(invite[1]!, set);
  }
  return byNumber;
}

const isFinal = (s: string) => (FINAL_STATES as readonly string[]).includes(s);

describe('two appliances on one PostgreSQL', () => {
  it('SIGKILL of one in a storm and with a call ringing: every answered alert is stored, every call dialled once, the dead node\'s calls by the other after the lease', async () => {
    const messageLog = join(mkdtempSync(join(tmpdir(), 'va-failover-')), 'sipp-messages.log');
    const sipp = await startSipp({ scenario: 'answer.xml', calls: 100_000, keys: { ring_ms: 2500 }, extra: ['-trace_msg', '-message_file', messageLog] });
    peers.push(sipp);
    const url = testStoreUrl()!;
    const a: ApplianceDir = applianceDir(await nodeConfig(sipp.port, url));
    const b: ApplianceDir = applianceDir(await nodeConfig(sipp.port, url));
    const acc = provision(a, 'enterprise', ['--monthly-credit', '1000']);
    // One secret.key for both (docs/high-availability.md).
    mkdirSync(join(b.dir, 'data'), { recursive: true });
    copyFileSync(join(a.dir, 'data', 'secret.key'), join(b.dir, 'data', 'secret.key'));
    const nodeA = await a.start();
    running.push(nodeA);
    const db = a.database();
    const stateOf = async (id: string) => ((await db.query('SELECT state FROM calls WHERE id = ?').get(id)) as { state: string } | null)?.state;
    const alert = (node: RunningAppliance, n: number) =>
      post(`${node.url}/api/call`, { api_key: acc.apiKey, api_secret: acc.apiSecret, phone_number: `53200000${String(n).padStart(2, '0')}`, error_message: `storm ${n}` });

    // A's call rings (B is not up yet, so A is the one holding it).
    const ringing = (await alert(nodeA, 0)).json.call_id as string;
    await expect.poll(() => stateOf(ringing), { timeout: 10_000, interval: 50 }).toBe('ringing');
    const nodeB = await b.start();
    running.push(nodeB);

    // The storm: 60 alerts to both, four at a time; A dies after 20 have been answered.
    const answered: string[] = [ringing];
    let sent = 0;
    let killed: Promise<void> | null = null;
    const worker = async () => {
      for (;;) {
        const n = ++sent;
        if (n > 60) return;
        const node = n % 2 === 0 || killed ? nodeB : nodeA;
        const r = await alert(node, n).catch(() => null); // a request to A in flight when it died
        if (r?.status === 200) answered.push(r.json.call_id);
        if (answered.length > 20 && !killed) killed = nodeA.kill();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    await killed;
    running.splice(running.indexOf(nodeA), 1);
    expect(answered.length).toBeGreaterThan(40);

    // Every answered alert is in the database, and each call ends (B dials what A held).
    await expect
      .poll(async () => (await Promise.all(answered.map(stateOf))).filter((state) => !isFinal(state ?? 'missing')).length, { timeout: 60_000, interval: 250 })
      .toBe(0);
    const calls = await Promise.all(
      answered.map(async (id) => ({
        id,
        ...((await db.query('SELECT phone_number, state, attempts FROM calls WHERE id = ?').get(id)) as { phone_number: string; state: string; attempts: number }),
      })),
    );
    expect(calls.every((c) => c.state === 'completed')).toBe(true);

    // The PBX saw each call dialled once by one appliance. The only second dials are of
    // calls A held when it died, taken by B once their lease ran out; a call A had claimed
    // but not yet sent its INVITE for reaches the PBX once, from B.
    await new Promise((r) => setTimeout(r, 500)); // sipp writes its log as it goes
    const invites = invitesByNumber(readFileSync(messageLog, 'utf8'));
    const heldByA = calls.filter((c) => c.attempts > 1);
    for (const c of calls) {
      const seen = invites.get(c.phone_number)?.size ?? 0;
      if (c.attempts === 1) expect(seen, c.phone_number).toBe(1);
      else expect([1, 2], c.phone_number).toContain(seen);
    }
    expect(heldByA.map((c) => c.id)).toContain(ringing);
    expect(invites.get(calls[0]!.phone_number)?.size).toBe(2); // the ringing one: A's INVITE, then B's
    for (const c of heldByA) {
      expect(c.attempts).toBe(2);
      const second = (await db.query(`SELECT reason FROM call_events WHERE call_id = ? AND to_state = 'dialing' ORDER BY id DESC LIMIT 1`).get(c.id)) as { reason: string };
      expect(second.reason).toMatch(/lease expired/);
    }
    expect(heldByA.length).toBeLessThanOrEqual(20); // A's max_concurrent
    await db.close();
  }, 120_000);
});
