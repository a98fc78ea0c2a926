import { afterEach, describe, expect, it } from 'vitest';
import type { StandIn } from '../../test/helpers/opsgenie-standin';
import { PAGERDUTY_TOKEN, startPagerDutyStandIn } from '../../test/helpers/pagerduty-standin';
import { PAGERDUTY_API, SourceError, pagerDutySource, planPagerDuty, readPagerDuty, type ImportPlan } from '.';
import { pagerDutyRestrictions } from './pagerduty-plan';

// docs/integrations.md "Moving from Opsgenie or PagerDuty": PagerDuty's REST API as its docs
// shape it (test/helpers/pagerduty-standin.ts), read page by page, and the plan it becomes.
const NOW = Date.parse('2026-11-15T12:00:00Z');
const ctx = { account: 'acc_x', numberForms: ['tr-mobile' as const], now: NOW, applianceUrl: 'http://va.lan:8080' };
let standIn: StandIn;
afterEach(() => standIn?.stop());

async function planFrom(o: { throttleOnce?: string[] } = {}) {
  standIn = startPagerDutyStandIn(o);
  const waits: number[] = [];
  const src = pagerDutySource({ token: PAGERDUTY_TOKEN, baseUrl: standIn.url, sleep: async (ms) => void waits.push(ms) });
  return { plan: planPagerDuty(await readPagerDuty(src, NOW), ctx), waits };
}

const named = (p: ImportPlan, kind: string, name: string) => p.objects.find((o) => o.kind === kind && o.name === name) as any;

describe('reading PagerDuty', () => {
  it('every page (offset while more), the schedule over the next 14 days, and a 429 waits ratelimit-reset seconds', async () => {
    const { plan, waits } = await planFrom({ throttleOnce: ['/schedules'] });
    expect(standIn.requests.filter((r) => r.startsWith('GET /users'))).toEqual([
      'GET /users?include[]=contact_methods&limit=100&offset=0',
      'GET /users?include[]=contact_methods&limit=100&offset=2',
    ]);
    expect(plan.objects.filter((o) => o.kind === 'person').map((o) => o.name)).toEqual(['Ayşe Yılmaz', 'Bora Kaya', 'John Smith']);
    expect(standIn.requests).toContain('GET /schedules/PNOC?since=2026-11-15T12:00:00.000Z&until=2026-11-29T12:00:00.000Z');
    expect(standIn.requests.filter((r) => r.startsWith('GET /schedules?'))).toHaveLength(2);
    expect(waits).toEqual([20_000]);
  });

  it("a token PagerDuty refuses: one error with PagerDuty's words", async () => {
    standIn = startPagerDutyStandIn();
    const e = await readPagerDuty(pagerDutySource({ token: 'wrong', baseUrl: standIn.url }), NOW).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SourceError);
    expect((e as SourceError).message).toBe('PagerDuty answered 401: Unauthorized (GET /users)');
    expect(PAGERDUTY_API).toBe('https://api.pagerduty.com');
  });
});

describe('the plan from PagerDuty', () => {
  it('names every object with its action, and why for each skip', async () => {
    const { plan } = await planFrom();
    expect(plan.objects.map((o) => [o.kind, o.action, o.name, 'of' in o ? o.of : null, o.why ?? null])).toEqual([
      ['person', 'create', 'Ayşe Yılmaz', null, null],
      ['person', 'create', 'Bora Kaya', null, null],
      ['person', 'create', 'John Smith', null, null],
      ['layer', 'skip', 'Layer 0', 'noc', 'ended 2025-06-01T00:00:00.000Z'],
      ['schedule', 'create', 'noc', null, null],
      ['layer', 'skip', 'Layer 1', 'us-only', 'a turn of 5400 s is not whole hours or days'],
      ['schedule', 'skip', 'us-only', null, 'no layer could be imported (each is listed with why)'],
      ['rule', 'skip', 'rule 2', 'noc-policy', 'schedule us-only was not imported'],
      ['policy', 'create', 'noc-policy', null, null],
    ]);
    expect(plan.integrations).toEqual([
      { name: 'web: Prometheus', type: 'events_api_v2_inbound_integration', url: 'http://va.lan:8080/v2/enqueue', key: "the account's webhook key (voice-alert keys list ACCOUNT)" },
      {
        name: 'web: Email',
        type: 'generic_email_inbound_integration',
        url: null,
        key: "the account's webhook key (voice-alert keys list ACCOUNT)",
        why: 'only Events API v2 is taken here: point the tool at Events API v2 (/v2/enqueue)',
      },
    ]);
  });

  it('contact methods: two phones and an SMS; a number outside numbers.accept skipped with why', async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'person', 'Ayşe Yılmaz')).toEqual({
      kind: 'person',
      action: 'create',
      name: 'Ayşe Yılmaz',
      source_id: 'PAYSE',
      phones: ['5321111111', '5322222222'],
      sms: ['5323333333'],
      emails: ['ayse@example.com'],
      language: 'tr',
      time_zone: 'Europe/Istanbul',
      skipped_numbers: [],
    });
    expect(named(plan, 'person', 'John Smith').skipped_numbers).toEqual([{ number: '+12125551234', why: '+12125551234 is not a form numbers.accept allows (tr-mobile)' }]);
  });

  it('a schedule stays one: the top layer last (ours covers the ones before it), restrictions of both kinds, local starts across DST, the override', async () => {
    const { plan } = await planFrom();
    const ayse = { name: 'Ayşe Yılmaz', number: '5321111111', person_source_id: 'PAYSE' };
    const bora = { name: 'Bora Kaya', number: '5324444444', person_source_id: 'PBORA' };
    expect(named(plan, 'schedule', 'noc')).toEqual({
      kind: 'schedule',
      action: 'create',
      name: 'noc',
      source_id: 'PNOC',
      time_zone: 'America/New_York',
      layers: [
        {
          source: 'PL1',
          participants: [ayse, bora],
          shift: '7d',
          start: '2026-10-26T09:00',
          restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '09:00', to: '18:00' }],
        },
        { source: 'PL2', participants: [bora], shift: '1d', start: '2026-10-31T10:00', restrictions: [{ days: ['sat'], from: '10:00', to: '16:00' }] },
      ],
      overrides: [{ from: '2099-11-20T00:00:00.000Z', to: '2099-11-21T00:00:00.000Z', ...ayse }],
    });
  });

  it("escalation_delay_in_minutes is the rule's own wait; num_loops 2 is 3 rounds", async () => {
    const { plan } = await planFrom();
    expect(named(plan, 'policy', 'noc-policy')).toEqual({
      kind: 'policy',
      action: 'create',
      name: 'noc-policy',
      source_id: 'PEP1',
      rounds: 3,
      steps: [
        { people: [], numbers: [], schedules: ['noc'], wait_s: 600 },
        { people: ['Bora Kaya'], numbers: ['5324444444'], schedules: [], wait_s: 900 },
      ],
    });
  });

  it('restrictions: a weekly range over midnight and the week end; a whole day', () => {
    expect(pagerDutyRestrictions([{ type: 'weekly_restriction', start_time_of_day: '18:00:00', duration_seconds: 2 * 86_400 + 15 * 3600, start_day_of_week: 5 }])).toEqual([
      { days: ['fri'], from: '18:00', to: '00:00' },
      { days: ['sat', 'sun'], from: '00:00', to: '00:00' },
      { days: ['mon'], from: '00:00', to: '09:00' },
    ]);
    expect(pagerDutyRestrictions([{ type: 'daily_restriction', start_time_of_day: '07:30:00', duration_seconds: 86_400 }])).toEqual([
      { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '07:30', to: '07:30' },
    ]);
  });
});
