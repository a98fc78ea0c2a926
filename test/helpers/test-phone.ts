/**
 * Test fixture (imported by *.test.ts only): a Telephone on loopback pointed at a peer, with
 * every SIP message it sends or receives kept whole, and a CallProgress that records.
 */
import { afterEach } from 'vitest';
import { sipSection } from '../../src/config/sections/sip';
import { silentLogger, type Logger } from '../../src/log';
import { freePort } from './ports';
import type { SippPeer } from './sipp';
import { testAudio } from './test-audio';
import type { CallProgress } from '../../src/call-model';
import { createTelephone, type DialRequest, type Telephone } from '../../src/sip';

export interface TestPhone {
  phone: Telephone;
  /** Whole messages, `out …` or `in …`. */
  messages: string[];
  /** First lines only: `out INVITE sip:… SIP/2.0`, `in SIP/2.0 180 Ringing`. */
  lines(): string[];
  sent(method: string): string[];
  /** When each `sent(method)` message went out (ms since the epoch). */
  sentAt(method: string): number[];
}

export async function testPhone(serverPort: number, extra: Record<string, unknown> = {}, log: Logger = silentLogger()): Promise<TestPhone> {
  const rtp = await freePort();
  const sip = sipSection.parse({
    server: `127.0.0.1:${serverPort}`,
    local_address: '127.0.0.1',
    local_port: 0,
    rtp_ports: `${rtp}-${rtp + 20}`,
    t1_ms: 50,
    t2_ms: 400,
    ...extra,
  });
  const messages: string[] = [];
  const seenAt: number[] = [];
  const phone = createTelephone(sip, 100, {
    log,
    onWire: (d, m) => {
      messages.push(`${d} ${m}`);
      seenAt.push(Date.now());
    },
  });
  await phone.start();
  const isSent = (method: string) => (m: string) => m.startsWith(`out ${method} `);
  return {
    phone,
    messages,
    lines: () => messages.map((m) => m.split('\r\n')[0]!),
    sent: (method) => messages.filter(isSent(method)),
    sentAt: (method) => seenAt.filter((_, i) => isSent(method)(messages[i]!)),
  };
}

export function recorder() {
  const events: string[] = [];
  const progress: CallProgress = {
    ringing: (s, r) => events.push(`ringing ${s} ${r}`),
    answered: (codec) => events.push(`answered ${codec}`),
    digit: (d) => events.push(`digit ${d}`),
  };
  return { events, progress };
}

export const dialTest = (phone: Telephone, progress: CallProgress, extra: Partial<DialRequest> = {}) =>
  phone.dial({
    number: '5321234567',
    audio: async () => testAudio(25),
    acknowledgedAudio: async () => testAudio(5, 2),
    ringTimeoutMs: 5000,
    answerDelayMs: 100,
    progress,
    ...extra,
  });

/** `Name: value` of the first such header in a whole message (case-insensitive name). */
export const header = (message: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(message)?.[1]?.trim() ?? null;

/** The phones and sipp peers a test file keeps: each is stopped after every test, phones first. */
export function stoppedAfterEach(): { peers: SippPeer[]; phones: Telephone[] } {
  const kept = { peers: [] as SippPeer[], phones: [] as Telephone[] };
  afterEach(async () => {
    await Promise.all(kept.phones.splice(0).map((p) => p.stop()));
    await Promise.all(kept.peers.splice(0).map((p) => p.stop()));
  });
  return kept;
}
