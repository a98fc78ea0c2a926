import { afterEach, describe, expect, it } from 'vitest';
import { OPSGENIE_KEY, startOpsgenieStandIn, type StandIn } from '../../test/helpers/opsgenie-standin';
import { OPSGENIE_US, SourceError, opsgenieSource, planOpsgenie, rateLimitWaitMs, readOpsgenie, type ImportPlan } from '.';
import { compileLayers, onCallAt, validateLayers } from '../schedules';
import { opsgenieNumber, opsgenieRestrictions } from './opsgenie-plan';

// docs/integrations.md "Moving from Opsgenie or PagerDuty": Opsgenie's REST API as its docs
// shape it (test/helpers/opsgenie-standin.ts), read page by page, and the plan it becomes.
const NOW = Date.parse('2026-11-15T12:00:00Z');
const ctx = { account: 'acc_x', numberForms: ['tr-mobile'] as const, now: NOW, applianceUrl: 'http://va.lan:8080' };
let standIn: StandIn;
afterEach(() => standIn?.stop());

async function planFrom(o: { throttleOnce?: string[] } = {}) {
  standIn = startOpsgenieStandIn(o);
  const waits: number[] = [];
  const src = opsgenieSource({ apiKey: OPSGENIE_KEY, baseUrl: standIn.url, sleep: async (ms) => void waits.push(ms) });
  const plan = planOpsgenie(await readOpsgenie(src), { ...ctx, numberForms: [...ctx.numberForms] });
  return { plan, waits };
}

const named = (p: ImportPlan, kind: string, name: string) => p.objects.find((o) => o.kind === kind && o.name === name) as any;

describe('reading Opsgenie', () => {
  it('every page of a list (paging.next), and a 429 waits as X-RateLimit-Period-In-Sec says, then asks again', async () => {
    const { plan, waits } = await planFrom({ throttleOnce: ['/v2/escalations'] });
    const users = standIn.requests.filter((r) => r.startsWith('GET /v2/users?'));
    expect(users).toEqual(['GET /v2/users?limit=100&offset=0', 'GET /v2/users?limit=2&offset=2', 'GET /v2/users?limit=2&offset=4']);
    expect(plan.objects.filter((o) => o.kind === 'person')).toHaveLength(5);
    expect(standIn.requests.filter((r) => r === 'GET /v2/escalations')).toHaveLength(2);
    expect(waits).toEqual([60_000]);
  });

  it("a key Opsgenie refuses: one error with Opsgenie's own words, nothing planned", async () => {
    standIn = startOpsgenieStandIn();
    const src = opsgenieSource({ apiKey: 'wrong', baseUrl: standIn.url });
    const e = await readOpsgenie(src).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourceError);
    expect((e as SourceError).message).toBe('Opsgenie answered 401: Could not authenticate (GET /v2/users)');
    expect(standIn.requests).toEqual(['GET /v2/users?limit=100&offset=0']);
  });

  it('a 500 on the third page of users stops the read there, naming it: no plan from part of a team', async () => {
    standIn = startOpsgenieStandIn({ failUsersAtOffset: 4 });
    const e = await readOpsgenie(opsgenieSource({ apiKey: OPSGENIE_KEY, baseUrl: standIn.url })).catch((x: unknown) => x);
    expect((e as SourceError).message).toBe('Opsgenie answered 500: Internal Server Error (GET /v2/users)');
    expect(standIn.requests).toEqual(['GET /v2/users?limit=100&offset=0', 'GET /v2/users?limit=2&offset=2', 'GET /v2/users?limit=2&offset=4']);
  });

  it('the US host by default; another (the EU host, a stand-in) by baseUrl, every request to it', async () => {
    expect(OPSGENIE_US).toBe('https://api.opsgenie.com');
    await planFrom();
    expect(standIn.requests.length).toBeGreaterThan(15);
  });

  it("a schedule's own final timeline (what --check will compare), every rotation's periods", async () => {
    standIn = startOpsgenieStandIn();
    const src = opsgenieSource({ apiKey: OPSGENIE_KEY, baseUrl: standIn.url });
    expect(await src.timeline('s-noc', '2026-11-15T12:00:00Z', 14)).toEqual([
      { startDate: '2026-11-16T14:00:00Z', endDate: '2026-11-16T23:00:00Z', type: 'default', recipient: { id: 'u-bora', type: 'user', name: 'bora@example.com' }, rotationId: 'r-days' },
      { startDate: '2026-11-16T12:00:00Z', endDate: '2026-11-17T00:00:00Z', type: 'default', recipient: { id: 'u-cem', type: 'user', name: 'cem@example.com' }, rotationId: 'r-backup' },
    ]);
    expect(standIn.requests).toEqual(['GET /v2/schedules/s-noc/timeline?identifierType=id&interval=14&intervalUnit=days&date=2026-11-15T12%3A00%3A00Z']);
  });

  it("a 429's wait: Retry-After in seconds or as a date, PagerDuty's ratelimit-reset, Opsgenie's period; at most two minutes", () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(rateLimitWaitMs(h({ 'retry-after': '3' }))).toBe(3000);
    expect(rateLimitWaitMs(h({ 'retry-after': new Date(NOW + 5000).toUTCString() }), NOW)).toBe(5000);
    expect(rateLimitWaitMs(h({ 'ratelimit-reset': '7' }))).toBe(7000);
    expect(rateLimitWaitMs(h({ 'x-ratelimit-period-in-sec': '60' }))).toBe(60_000);
    expect(rateLimitWaitMs(h({ 'x-ratelimit-period-in-sec': '3600' }))).toBe(120_000);
    expect(rateLimitWaitMs(h({}))).toBe(1000);
  });
});

describe('the plan from Opsgenie', () => {
  it('names every object with its action, and why for each skip', async () => {
    const { plan } = await planFrom();
    expect(plan.objects.map((o) => [o.kind, o.action, o.name, 'of' in o ? o.of : null, o.why ?? null])).toEqual([
      ['person', 'create', 'Ayşe Yılmaz', null, null],
      ['person', 'create', 'Bora Kaya', null, null],
      ['person', 'create', 'John Smith', null, null],
      ['person', 'create', 'Cem Demir', null, null],
      ['person', 'create', 'Deniz Ak', null, null],
      ['rotation', 'skip', 'dba team', 'noc', 'team dba as a participant: Opsgenie notifies the team as a whole, a layer here calls one person a turn; name its members in the rotation'],
      ['rotation', 'skip', 'old', 'noc', 'ended 2025-06-01T00:00:00.000Z'],
      ['schedule', 'create', 'noc', null, null],
      ['schedule', 'create', 'noc-backup', null, null],
      ['rotation', 'skip', 'john', 'us-only', 'John Smith has no voice number numbers.accept allows'],
      ['schedule', 'skip', 'us-only', null, 'no rotation could be imported (each is listed with why)'],
      ['rule', 'skip', 'rule 4 (random team dba)', 'noc-escalation', 'random: one member chosen at random cannot be expressed here'],
      ['rule', 'skip', 'rule 5 (default user ayse@example.com)', 'noc-escalation', 'if-not-closed: an acknowledgement ends the escalation here, so a rule that goes on until the alert is closed cannot be kept'],
      ['rule', 'skip', 'rule 6 (next schedule noc)', 'noc-escalation', 'notify the next on-call person: a step here calls who is on call now'],
      ['policy', 'create', 'noc-escalation', null, null],
      ['rule', 'skip', 'rule 1 (all team empty)', 'empty-team', 'team empty has no members'],
      ['policy', 'skip', 'empty-team', null, 'no rule could be imported (each is listed with why)'],
      ['heartbeat', 'create', 'nightly-backup', null, null],
      ['heartbeat', 'create', 'orphan', null, null],
      ['window', 'create', 'core switch upgrade', null, null],
      ['window', 'skip', 'prometheus only', null, "limited to some integrations or policies: every alert here arrives by the account's one key, so no match expresses exactly that"],
      ['window', 'skip', 'lab', null, 'indefinitely: a window here has an end'],
    ]);
    expect(plan.integrations).toEqual([
      { name: 'Prometheus', type: 'Prometheus', url: 'http://va.lan:8080/v2/alerts', key: "the account's webhook key (voice-alert keys list ACCOUNT)" },
      { name: 'Default API', type: 'API', url: 'http://va.lan:8080/v2/alerts', key: "the account's webhook key (voice-alert keys list ACCOUNT)" },
    ]);
  });

  it('a user with two voice contacts and an SMS contact; a number outside numbers.accept is skipped with why', async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'person', 'Ayşe Yılmaz')).toEqual({
      kind: 'person',
      action: 'create',
      name: 'Ayşe Yılmaz',
      source_id: 'u-ayse',
      phones: ['5321111111', '5322222222'],
      sms: ['5323333333'],
      emails: ['ayse@example.com', 'ayse.home@example.com'],
      language: 'tr',
      time_zone: 'Europe/Istanbul',
      skipped_numbers: [],
    });
    expect(named(plan, 'person', 'John Smith')).toMatchObject({
      phones: [],
      language: 'en',
      time_zone: 'America/New_York',
      skipped_numbers: [{ number: '1-2125551234', why: '+12125551234 is not a form numbers.accept allows (tr-mobile)' }],
    });
  });

  it('with e164 accepted, the same number is kept', async () => {
    standIn = startOpsgenieStandIn();
    const plan = planOpsgenie(await readOpsgenie(opsgenieSource({ apiKey: OPSGENIE_KEY, baseUrl: standIn.url })), { ...ctx, numberForms: ['tr-mobile', 'e164'] });
    expect(named(plan, 'person', 'John Smith')).toMatchObject({ phones: ['+12125551234'], skipped_numbers: [] });
    expect(named(plan, 'schedule', 'us-only').action).toBe('create');
  });

  it('rotations that never overlap are layers of one schedule (restrictions of both kinds, local start across DST); the one that overlaps is noc-backup', async () => {
    const { plan } = await planFrom();
    const ayse = { name: 'Ayşe Yılmaz', number: '5321111111', person_source_id: 'u-ayse' };
    const bora = { name: 'Bora Kaya', number: '5324444444', person_source_id: 'u-bora' };
    expect(named(plan, 'schedule', 'noc')).toEqual({
      kind: 'schedule',
      action: 'create',
      name: 'noc',
      source_id: 's-noc',
      time_zone: 'America/New_York',
      layers: [
        {
          source: 'r-days',
          participants: [ayse, bora],
          shift: '7d',
          // 13:00Z on 2026-10-26 is 09:00 EDT: a local 09:00 start, still 09:00 after DST ends on 11-01.
          start: '2026-10-26T09:00',
          restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '09:00', to: '18:00' }],
        },
        {
          source: 'r-nights',
          participants: [bora, ayse],
          shift: '1d',
          start: '2026-10-26T18:00',
          // Monday 18:00 to Tuesday 09:00 and Friday 18:00 to Saturday 09:00, cut at midnight.
          restrictions: [
            { days: ['mon', 'fri'], from: '18:00', to: '00:00' },
            { days: ['tue', 'sat'], from: '00:00', to: '09:00' },
          ],
        },
      ],
      // The override names the days rotation, which is in noc; the one that ended is left out.
      overrides: [{ from: '2099-11-20T00:00:00.000Z', to: '2099-11-21T00:00:00.000Z', name: 'Deniz Ak', number: '5326666666', person_source_id: 'u-deniz' }],
    });
    expect(named(plan, 'schedule', 'noc-backup')).toMatchObject({
      source_id: 's-noc/r-backup',
      split_from: 'noc',
      layers: [{ source: 'r-backup', shift: '12h', start: '2026-10-26T08:00', participants: [{ name: 'Cem Demir' }, { name: 'Deniz Ak' }] }],
      overrides: [],
    });
    expect(named(plan, 'schedule', 'noc-backup').layers[0].restrictions).toBeUndefined();
  });

  it('every schedule planned is one our schedules accept, and the layers say who is on call after DST ended', async () => {
    const { plan } = await planFrom();
    const created = plan.objects.filter((o) => o.kind === 'schedule' && o.action === 'create') as any[];
    for (const s of created) expect(validateLayers(s.layers)).toMatchObject({ ok: true });
    const noc = named(plan, 'schedule', 'noc');
    const rules = { timeZone: noc.time_zone, layers: compileLayers(noc.layers), overrides: [] };
    // Friday 2026-11-20 18:30 EST: the nights rotation's 26th turn (Bora, Ayşe, …: Ayşe) until
    // Saturday 09:00 EST, when the days rotation (week 4 since 10-26: Bora) takes over.
    expect(onCallAt(rules, Date.parse('2026-11-20T23:30:00Z'))).toEqual({ name: 'Ayşe Yılmaz', number: '5321111111', until: Date.parse('2026-11-21T14:00:00Z') });
    expect(onCallAt(rules, Date.parse('2026-11-21T14:00:00Z'))).toMatchObject({ name: 'Bora Kaya', until: Date.parse('2026-11-21T23:00:00Z') });
  });

  it("escalation: same delay one step; wait = next rule's delay minus its own, the last repeat.waitInterval; repeat.count 2 is 3 rounds; a schedule means all its parts", async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'policy', 'noc-escalation')).toEqual({
      kind: 'policy',
      action: 'create',
      name: 'noc-escalation',
      source_id: 'e-noc',
      rounds: 3,
      steps: [
        { people: [], numbers: [], schedules: ['noc', 'noc-backup'], wait_s: 300 },
        { people: ['Bora Kaya'], numbers: ['5324444444'], schedules: [], wait_s: 600 },
        { people: ['Cem Demir', 'Deniz Ak'], numbers: ['5325555555', '5326666666'], schedules: [], wait_s: 600 },
      ],
    });
  });

  it("heartbeats: an interval in hours; the owner team's escalation, else the fallback said; disabled is paused", async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'heartbeat', 'nightly-backup')).toEqual({
      kind: 'heartbeat',
      action: 'create',
      name: 'nightly-backup',
      source_id: 'nightly-backup',
      interval_s: 7200,
      message: 'Backup did not report',
      paused: false,
      policy: 'noc-escalation',
    });
    expect(named(plan, 'heartbeat', 'orphan')).toMatchObject({ interval_s: 600, paused: true, policy: null, notes: ["it has no owner team: the account's fallback is called"] });
  });

  it('maintenance of every integration is a window for every alert', async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'window', 'core switch upgrade')).toEqual({
      kind: 'window',
      action: 'create',
      name: 'core switch upgrade',
      source_id: 'm-all',
      start: '2099-12-01T22:00:00.000Z',
      end: '2099-12-02T02:00:00.000Z',
      match: [],
    });
  });
});

describe("Opsgenie's own forms", () => {
  it('phone contacts are written country code, dash, number', () => {
    expect(opsgenieNumber('90-5321111111')).toBe('+905321111111');
    expect(opsgenieNumber('1-2125551234')).toBe('+12125551234');
  });

  it('a weekday range that ends before it starts wraps over the week (Sunday 22:00 to Monday 06:00)', () => {
    expect(
      opsgenieRestrictions({ type: 'weekday-and-time-of-day', restrictions: [{ startDay: 'sunday', startHour: 22, startMin: 0, endDay: 'monday', endHour: 6, endMin: 0 }] }),
    ).toEqual([
      { days: ['sun'], from: '22:00', to: '00:00' },
      { days: ['mon'], from: '00:00', to: '06:00' },
    ]);
    expect(opsgenieRestrictions({ type: 'time-of-day', restriction: { startHour: 22, startMin: 30, endHour: 6, endMin: 0 } })).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '22:30', to: '06:00' },
    ]);
  });
});
