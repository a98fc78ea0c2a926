import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manualClock, tempStore } from '../../test/helpers/memory-store';
import { createAlertActions } from '../alerts';
import { createLogger } from '../log';
import { alertJson } from '../outward';
import { newLease, type Person, type Store } from '../store';
import { createTextNotifier, randomShortCodes } from './notifier';
import { createReplyHandler } from './replies';
import { recordingSecondPath } from '../../test/helpers/recording-second-path';

// docs/second-path.md: texts and e-mails owed beside a person's first call, sent after COMMIT,
// recorded on the alert with their callbacks; replies acknowledge or resolve. Through the
// binary with the modem simulator: test/integration/second-path-alerts.test.ts.
let clock: ReturnType<typeof manualClock>;
let store: Store;
const log = createLogger('silent');

beforeEach(async () => {
  clock = manualClock('2026-11-15T12:00:00Z');
  store = await tempStore(clock);
});
afterEach(() => store.close());

async function account() {
  const acc = await store.transaction((tx) => tx.accounts.create({ name: 't', plan: 'starter' }));
  await store.transaction((tx) => tx.outbox.setTarget(acc.id, { url: 'http://127.0.0.1:9/cb', secret: 's'.repeat(32) }));
  return acc;
}

async function person(accountId: string, f: Partial<Pick<Person, 'name' | 'sms' | 'emails' | 'language'>>) {
  return store.transaction((tx) =>
    tx.people.create(accountId, { name: f.name ?? 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }], sms: f.sms ?? [], emails: f.emails ?? [], language: f.language ?? 'tr', timeZone: null }, clock()),
  );
}

/** An alert and calls to these people (as the intake and escalation queue them), in one transaction. */
async function alertCalling(accountId: string, people: Person[], message = 'disk full on db1') {
  return store.transaction(async (tx) => {
    const alertId = await tx.alerts.create({ accountId, credentialId: null, key: null, source: 'api', message, labels: null }, clock());
    await tx.calls.enqueue(
      people.map((p) => ({ accountId, credentialId: null, source: 'api' as const, phoneNumber: p.phones[0]!.number, message, alertId, escalationOrdinal: 1, person: { personId: p.id, phone: 0 } })),
      clock(),
    );
    return alertId;
  });
}

const outboxTypes = async (accountId: string) => (await store.outbox.recent(accountId, 50)).map((e) => e.type).sort();

describe('texts and e-mails to people reached by an alert', () => {
  it("each --sms number gets a text and each --email an e-mail in the person's language, once per alert and person", async () => {
    const acc = await account();
    const ayse = await person(acc.id, { name: 'Ayşe', sms: ['5321234567', '5327654321'], emails: ['ayse@example.com'], language: 'tr' });
    const bob = await person(acc.id, { name: 'Bob', sms: ['5329999999'], language: 'en' });
    const { path, texts, emails } = recordingSecondPath({ failing: ['5327654321'] });
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000, codes: () => ['4821', '4822'] });
    const alertId = await alertCalling(acc.id, [ayse, bob]);
    // The person's next phone (or a second step) calling them again for the same alert owes nothing more.
    await store.transaction((tx) =>
      tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5322222222', message: 'disk', alertId, escalationOrdinal: 1, person: { personId: ayse.id, phone: 1 } }], clock()),
    );
    await notifier.tick();
    await notifier.tick();
    expect(texts.map((t) => t.number).sort()).toEqual(['5321234567', '5327654321', '5329999999']);
    expect(texts.find((t) => t.number === '5321234567')!.text).toBe('ALARM 4821: disk full on db1\nOnaylamak için 1, kapatmak için "resolve 4821" yazıp yanıtlayın.');
    // One short code per alert: the second person's text names the same one.
    expect(texts.find((t) => t.number === '5329999999')!.text).toBe('ALERT 4821: disk full on db1\nReply 1 to acknowledge, or "resolve 4821" to resolve.');
    expect(emails).toEqual([{ to: 'ayse@example.com', subject: 'Alarm 4821: disk full on db1', body: expect.stringContaining(`Alarm ${alertId}, kısa kod 4821.`) }]);

    const json = await alertJson(store, (await store.alerts.get(alertId))!);
    expect(json.short_code).toBe('4821');
    expect(json.events.map((e) => [e.type, e.address, e.person_id, e.detail]).sort()).toEqual(
      [
        ['email.sent', 'ayse@example.com', ayse.id, null],
        ['sms.failed', '5327654321', ayse.id, '+CMS ERROR: 500'],
        ['sms.sent', '5321234567', ayse.id, 'modem gsm0'],
        ['sms.sent', '5329999999', bob.id, 'modem gsm0'],
      ].sort(),
    );
    expect(await outboxTypes(acc.id)).toEqual(['email.sent', 'sms.failed', 'sms.sent', 'sms.sent']);
    const sent = (await store.outbox.recent(acc.id, 50)).find((e) => e.type === 'sms.failed')!;
    expect(JSON.parse(sent.body)).toMatchObject({ type: 'sms.failed', alert: { id: alertId }, person_id: ayse.id, to: '5327654321', detail: '+CMS ERROR: 500' });
  });

  it('a bare number, a person with no --sms or --email, or an alert closed before the notice is sent: nothing sent', async () => {
    const acc = await account();
    const quiet = await person(acc.id, { name: 'Quiet' });
    const late = await person(acc.id, { name: 'Late', sms: ['5321234567'] });
    const { path, texts } = recordingSecondPath();
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000 });
    const bare = await store.transaction(async (tx) => {
      const id = await tx.alerts.create({ accountId: acc.id, credentialId: null, key: null, source: 'api', message: 'm', labels: null }, clock());
      await tx.calls.enqueue([{ accountId: acc.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'm', alertId: id }], clock());
      return id;
    });
    await alertCalling(acc.id, [quiet]);
    const closed = await alertCalling(acc.id, [late]);
    await createAlertActions({ store, clock, timeZone: 'Europe/Istanbul' }).acknowledge(acc.id, closed, '5321111111');
    await notifier.tick();
    expect(texts).toEqual([]);
    expect((await store.alerts.get(bare))!.shortCode).toBeNull();
    // Every notice was handled: another tick finds nothing.
    expect(await store.transaction((tx) => tx.textNotices.claim(clock(), 10, newLease(1)))).toEqual([]);
  });

  it("a notice leased by an appliance that died (or let go) is sent once the lease ran out; a short code in use by another open alert is not given again", async () => {
    const acc = await account();
    const ayse = await person(acc.id, { sms: ['5321234567'] });
    const first = await alertCalling(acc.id, [ayse], 'one');
    const second = await alertCalling(acc.id, [ayse], 'two');
    const { path, texts } = recordingSecondPath();
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 30_000, codes: () => ['1111', '2222'] });
    // Another appliance claimed both and died.
    const dead = newLease(30_000);
    expect(await store.transaction((tx) => tx.textNotices.claim(clock(), 10, dead))).toHaveLength(2);
    await notifier.tick();
    expect(texts).toEqual([]);
    // Leases run on the database's clock (store/lease.ts): on SQLite the caller's; on
    // PostgreSQL its own, so there the other appliance lets go instead.
    if (store.dialect === 'sqlite') clock.advance(30_001);
    else await store.transaction((tx) => tx.textNotices.release(dead.owner));
    await notifier.tick();
    expect(texts).toHaveLength(2);
    const codes = [(await store.alerts.get(first))!.shortCode, (await store.alerts.get(second))!.shortCode].sort();
    expect(codes).toEqual(['1111', '2222']);
  });

  it('short codes chosen at once (two notices, two appliances) never give two open alerts one code', async () => {
    const acc = await account();
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => alertCalling(acc.id, [], `alert ${i}`)));
    const candidates = ['1111', '2222', '3333', '4444', '5555', '6666', '7777', '8888'];
    // Each in its own transaction, all at once: on PostgreSQL they run side by side on the
    // pool's connections, and each would see every candidate free without the account's turn.
    const codes = await Promise.all(ids.map((id) => store.transaction((tx) => tx.textNotices.assignShortCode(id, acc.id, candidates))));
    expect([...codes].sort()).toEqual(candidates);
  });

  it('randomShortCodes: 4 digits first, then 6', () => {
    let i = 0;
    const codes = randomShortCodes(() => [0, 0.9999][i++ % 2]!);
    expect(codes.slice(0, 2)).toEqual(['1000', '9999']);
    expect(codes.every((c) => /^\d{4}$|^\d{6}$/.test(c))).toBe(true);
    expect(codes.at(-1)).toMatch(/^\d{6}$/);
  });
});

describe('answering by text', () => {
  async function texted() {
    const acc = await account();
    const ayse = await person(acc.id, { sms: ['5321234567'] });
    const { path } = recordingSecondPath();
    let n = 0;
    const notifier = createTextNotifier({ store, clock, log, secondPath: path, leaseMs: 60_000, codes: () => [String(4000 + ++n)] });
    const older = await alertCalling(acc.id, [ayse], 'older');
    await notifier.tick();
    clock.advance(1000);
    const newer = await alertCalling(acc.id, [ayse], 'newer');
    await notifier.tick();
    const alerts = createAlertActions({ store, clock, timeZone: 'Europe/Istanbul' });
    const reply = createReplyHandler({ store, clock, log, alerts });
    const text = (from: string, body: string) => reply({ path: 'modem', via: 'gsm0', from, body, truncated: false });
    return { acc, ayse, older, newer, text };
  }

  it('"1" from the person\'s number (any form) acknowledges the newest alert texted to it, as sms:<number>', async () => {
    const { older, newer, text } = await texted();
    expect(await text('+905321234567', '1')).toMatchObject({ kind: 'done', alertId: newer, changed: true });
    expect(await store.alerts.get(newer)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'sms:5321234567' });
    expect((await store.alerts.get(older))!.state).toBe('open');
    const json = await alertJson(store, (await store.alerts.get(newer))!);
    expect(json.events.at(-1)).toMatchObject({ type: 'sms.received', address: '5321234567', detail: '1' });
    expect((await store.calls.ofAlert(newer)).every((c) => c.state === 'cancelled')).toBe(true);
    // Again: the newest is acknowledged already, so the newest still open is.
    expect(await text('5321234567', 'ack')).toMatchObject({ kind: 'done', alertId: older, changed: true });
    // And once none is open, the newest, unchanged.
    expect(await text('5321234567', '1')).toMatchObject({ kind: 'done', alertId: newer, changed: false });
  });

  it('"ack <code>" and "resolve <code>" name their alert; an unknown code changes nothing', async () => {
    const { older, newer, text } = await texted();
    const olderCode = (await store.alerts.get(older))!.shortCode!;
    expect(await text('05321234567', `ack ${olderCode}`)).toMatchObject({ kind: 'done', alertId: older });
    expect((await store.alerts.get(older))!.state).toBe('acknowledged');
    expect(await text('sip:05321234567@pbx.lan', `RESOLVE ${(await store.alerts.get(newer))!.shortCode}`)).toMatchObject({ kind: 'done', alertId: newer });
    expect((await store.alerts.get(newer))!.state).toBe('resolved');
    expect(await text('5321234567', 'ack 9999')).toMatchObject({ kind: 'no_alert' });
  });

  it('"1" from another number, a text that is no answer, or 2,000 characters change nothing', async () => {
    const { older, newer, text } = await texted();
    expect(await text('+905320000000', '1')).toEqual({ kind: 'unknown_sender', number: '5320000000' });
    expect(await text('Turkcell', '1')).toEqual({ kind: 'unknown_sender', number: null });
    expect(await text('5321234567', 'on my way')).toEqual({ kind: 'not_an_answer', number: '5321234567' });
    expect(await text('5321234567', '1'.repeat(2000))).toEqual({ kind: 'not_an_answer', number: '5321234567' });
    for (const id of [older, newer]) {
      const a = (await store.alerts.get(id))!;
      expect(a.state).toBe('open');
      expect((await alertJson(store, a)).events.map((e) => e.type)).toEqual(['sms.sent']);
    }
  });
});
