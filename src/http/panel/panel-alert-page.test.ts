import { describe, expect, test } from 'vitest';
import { acmeOwnerOn, panelApp } from '../../../test/helpers/panel-app';

/**
 * The alert's page (docs/panel.md "An alert's page"): each call's events as GET /api/calls/{id}
 * has them, who answered each attempt, a player for what the call says, and the second path's
 * texts and e-mails (docs/second-path.md "On the alert").
 */
async function setup() {
  const ctx = await acmeOwnerOn(await panelApp({ language: 'en' }), 'alerts');
  const now = Date.now();
  const { alertId, callId } = await ctx.store.transaction(async (tx) => {
    const alertId = await tx.alerts.create({ accountId: ctx.a.id, credentialId: null, key: null, source: 'api', message: 'Disk <b>full</b>' }, now);
    const [callId] = await tx.calls.enqueue([{ accountId: ctx.a.id, credentialId: null, source: 'api', phoneNumber: '5321234567', message: 'Disk <b>full</b>', alertId }], now);
    return { alertId, callId: callId! };
  });
  return { ...ctx, now, alertId, callId, path: `${ctx.page}/${alertId}` };
}

describe('panel alert page', () => {
  test('each call shows its events with SIP codes and who answered each attempt, and a player for its message', async () => {
    const { store, owner, a, now, callId, path } = await setup();
    // Attempt 1: a mailbox answers and the call is tried again; attempt 2: a person presses 1.
    const claimed = await store.transaction((tx) => tx.calls.claim(now, 60_000));
    expect(claimed?.id).toBe(callId);
    await store.transaction(async (tx) => {
      await tx.calls.move(callId, { from: 'dialing', to: 'ringing', at: now + 1_000, attempt: 1, sipCode: 180 });
      await tx.calls.move(callId, { from: 'ringing', to: 'answered', at: now + 5_000, attempt: 1, sipCode: 200, answered: true, answeredBy: 'machine', amdReason: 'beep' });
      await tx.calls.move(callId, { from: 'answered', to: 'queued', at: now + 9_000, attempt: 1, reason: 'voicemail, hung up', runAfter: now });
    });
    expect((await store.transaction((tx) => tx.calls.claim(now + 10_000, 60_000)))?.attempts).toBe(2);
    await store.transaction(async (tx) => {
      await tx.calls.move(callId, { from: 'dialing', to: 'answered', at: now + 12_000, attempt: 2, sipCode: 200, answered: true, answeredBy: 'human', amdReason: 'keypress' });
      await tx.calls.move(callId, { from: 'answered', to: 'acknowledged', at: now + 14_000, attempt: 2, acknowledged: true, finished: true });
    });
    const html = await (await owner.get(path)).text();
    const card = /<section class="card" data-call-events="[^"]+"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(card).toContain(`data-call-events="${callId}"`);
    const lines = [...card.matchAll(/<li data-to="(\w+)"[^>]*>([^<]*)<\/li>/g)].map((m) => [m[1], m[2]!.split(' · ').slice(1).join(' · ')]);
    expect(lines).toEqual([
      ['dialing', '#1 · Queued → Dialing'],
      ['ringing', '#1 · Dialing → Ringing · SIP 180'],
      ['answered', '#1 · Ringing → Answered · SIP 200 · a voicemail (beep)'],
      ['queued', '#1 · Answered → Queued · voicemail, hung up'],
      ['dialing', '#2 · Queued → Dialing'],
      ['answered', '#2 · Dialing → Answered · SIP 200 · a person (key pressed)'],
      ['acknowledged', '#2 · Answered → Acknowledged'],
    ]);
    expect(card).toContain('data-answered-by="human">Answered by: a person (key pressed)</p>');
    expect(card).toContain(`<audio controls="" preload="none" src="/panel/a/${a.id}/calls/${callId}/audio.wav"`);
    // The message itself is text on the page, never markup.
    expect(html).toContain('Disk &lt;b&gt;full&lt;/b&gt;');
    expect(html).not.toContain('Disk <b>full</b>');
  });

  test('a call not dialled yet says so; an alert with no text says so', async () => {
    const { owner, path } = await setup();
    const html = await (await owner.get(path)).text();
    expect(html).toContain('Not dialled yet.');
    expect(html).toContain('No text or e-mail was sent or received for this alert.');
    expect(html).not.toContain('id="alert-texts-table"');
  });

  test('texts and e-mails sent, failed and received are listed oldest first with the person, escaped; the short code shows', async () => {
    const { store, owner, a, b, now, alertId, path } = await setup();
    const person = await store.transaction((tx) => tx.people.create(a.id, { name: 'Ayşe', phones: [{ number: '5321111111', verifiedAt: null }], sms: ['5321111111'], emails: ['ayse@acme.test'], language: 'en', timeZone: null }, now));
    await store.transaction(async (tx) => {
      expect(await tx.textNotices.assignShortCode(alertId, a.id, ['4821'])).toBe('4821');
      await tx.textNotices.record({ alertId, accountId: a.id, personId: person.id, type: 'sms.sent', address: '5321111111', detail: 'modem gsm1', at: now + 1 });
      await tx.textNotices.record({ alertId, accountId: a.id, personId: person.id, type: 'email.failed', address: 'ayse@acme.test', detail: '<script>alert(1)</script>', at: now + 2 });
      await tx.textNotices.record({ alertId, accountId: a.id, personId: null, type: 'sms.received', address: '5329999999', detail: 'ack 4821', at: now + 3 });
    });
    const html = await (await owner.get(path)).text();
    expect(html).toMatch(/data-testid="short-code">\s*<code>4821<\/code>/);
    const table = /<table class="stack" id="alert-texts-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr data-text-type="([\w.]+)">([\s\S]*?)<\/tr>/g)].map((m) => [m[1], [...m[2]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].slice(1).map((c) => c[1]!.replace(/<\/?code>/g, '').trim())]);
    expect(rows).toEqual([
      ['sms.sent', ['text sent', '5321111111', 'Ayşe', 'modem gsm1']],
      ['email.failed', ['e-mail failed', 'ayse@acme.test', 'Ayşe', '&lt;script&gt;alert(1)&lt;/script&gt;']],
      ['sms.received', ['text received', '5329999999', '—', 'ack 4821']],
    ]);
    // Another account's owner cannot open it: not found, like a missing alert.
    expect((await owner.get(`/panel/a/${b.id}/alerts/${alertId}`)).status).toBe(404);
  });
});
