import type { StandIn } from './opsgenie-standin';

/**
 * A stand-in for PagerDuty's REST API v2 on 127.0.0.1 (docs/integrations.md "Moving from Opsgenie
 * or PagerDuty"), serving the shapes PagerDuty's developer docs and API reference show: classic
 * pagination (`limit`, `offset`, `more`), users with `include[]=contact_methods`, a schedule in
 * America/New_York with layers (top layer first) across the DST change, restrictions of both
 * kinds and an override, escalation policies with `num_loops`, services with their integrations.
 * `Token token=good-token` only (else 401 with PagerDuty's error body, code 2006); a path in
 * `throttleOnce` answers its first request 429 with the `ratelimit-*` headers of
 * developer-docs "Rate Limits". `finalSchedule` renders a schedule's `final_schedule` entries
 * for `since`/`until` (--check's tests: a final schedule written apart).
 */
export const PAGERDUTY_TOKEN = 'good-token';

const phone = (id: string, cc: number, address: string) => ({ id, type: 'phone_contact_method', country_code: cc, address, label: 'Mobile' });
const sms = (id: string, cc: number, address: string) => ({ id, type: 'sms_contact_method', country_code: cc, address, label: 'Mobile' });
const email = (id: string, address: string) => ({ id, type: 'email_contact_method', address, label: 'Work' });

const USERS = [
  {
    id: 'PAYSE',
    type: 'user',
    name: 'Ayşe Yılmaz',
    email: 'ayse@example.com',
    time_zone: 'Europe/Istanbul',
    locale: 'tr-TR',
    contact_methods: [phone('PC1', 90, '5321111111'), phone('PC2', 90, '5322222222'), sms('PC3', 90, '5323333333'), email('PC4', 'ayse@example.com')],
  },
  { id: 'PBORA', type: 'user', name: 'Bora Kaya', email: 'bora@example.com', time_zone: 'Europe/Istanbul', locale: 'en-US', contact_methods: [phone('PC5', 90, '5324444444')] },
  { id: 'PJOHN', type: 'user', name: 'John Smith', email: 'john@example.com', time_zone: 'America/New_York', locale: 'en-US', contact_methods: [phone('PC6', 1, '2125551234')] },
];

const ref = (id: string, type: string, summary: string) => ({ id, type, summary });

const SCHEDULES: Record<string, Record<string, unknown>> = {
  PNOC: {
    id: 'PNOC',
    type: 'schedule',
    name: 'noc',
    time_zone: 'America/New_York',
    schedule_layers: [
      {
        id: 'PL2',
        name: 'Layer 2',
        start: '2026-10-26T13:00:00Z',
        end: null,
        rotation_virtual_start: '2026-10-31T14:00:00Z',
        rotation_turn_length_seconds: 86_400,
        users: [{ user: ref('PBORA', 'user_reference', 'Bora Kaya') }],
        // Saturday 10:00 for 6 hours.
        restrictions: [{ type: 'weekly_restriction', start_time_of_day: '10:00:00', duration_seconds: 21_600, start_day_of_week: 6 }],
      },
      {
        id: 'PL1',
        name: 'Layer 1',
        start: '2026-10-26T13:00:00Z',
        end: null,
        // 09:00 EDT before DST ends on 2026-11-01.
        rotation_virtual_start: '2026-10-26T13:00:00Z',
        rotation_turn_length_seconds: 604_800,
        users: [{ user: ref('PAYSE', 'user_reference', 'Ayşe Yılmaz') }, { user: ref('PBORA', 'user_reference', 'Bora Kaya') }],
        restrictions: [{ type: 'daily_restriction', start_time_of_day: '09:00:00', duration_seconds: 32_400 }],
      },
      { id: 'PL0', name: 'Layer 0', start: '2025-01-01T00:00:00Z', end: '2025-06-01T00:00:00Z', rotation_virtual_start: '2025-01-01T00:00:00Z', rotation_turn_length_seconds: 86_400, users: [{ user: ref('PBORA', 'user_reference', 'Bora Kaya') }], restrictions: [] },
    ],
    final_schedule: { name: 'Final Schedule', rendered_schedule_entries: [] },
  },
  PUS: {
    id: 'PUS',
    type: 'schedule',
    name: 'us-only',
    time_zone: 'UTC',
    schedule_layers: [
      { id: 'PLJ', name: 'Layer 1', start: '2026-10-26T00:00:00Z', end: null, rotation_virtual_start: '2026-10-26T00:00:00Z', rotation_turn_length_seconds: 5400, users: [{ user: ref('PJOHN', 'user_reference', 'John Smith') }], restrictions: [] },
    ],
  },
};

const OVERRIDES: Record<string, unknown[]> = {
  PNOC: [{ id: 'PO1', start: '2099-11-20T00:00:00Z', end: '2099-11-21T00:00:00Z', user: ref('PAYSE', 'user_reference', 'Ayşe Yılmaz') }],
  PUS: [],
};

const POLICIES = [
  {
    id: 'PEP1',
    type: 'escalation_policy',
    name: 'noc-policy',
    num_loops: 2,
    escalation_rules: [
      { id: 'PR1', escalation_delay_in_minutes: 10, targets: [ref('PNOC', 'schedule_reference', 'noc')] },
      { id: 'PR2', escalation_delay_in_minutes: 15, targets: [ref('PBORA', 'user_reference', 'Bora Kaya'), ref('PUS', 'schedule_reference', 'us-only')] },
    ],
  },
];

const SERVICES = [
  {
    id: 'PSVC',
    type: 'service',
    name: 'web',
    escalation_policy: ref('PEP1', 'escalation_policy_reference', 'noc-policy'),
    integrations: [
      { id: 'PI1', type: 'events_api_v2_inbound_integration', name: 'Prometheus', summary: 'Prometheus', integration_key: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' },
      { id: 'PI2', type: 'generic_email_inbound_integration', name: 'Email', summary: 'Email' },
    ],
  },
];

/** A classic paginated list: `pageSize` at most, `more` while there is more. */
function page(url: URL, field: string, items: unknown[], pageSize: number) {
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), pageSize);
  return { [field]: items.slice(offset, offset + limit), limit, offset, more: offset + limit < items.length, total: null };
}

export interface FinalEntry {
  start: string;
  end: string;
  user: string;
}

export function startPagerDutyStandIn(o: { throttleOnce?: string[]; pageSize?: number; finalSchedule?: (id: string, since: string, until: string) => FinalEntry[] } = {}): StandIn {
  const requests: string[] = [];
  const throttled = new Set<string>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.method} ${decodeURIComponent(url.pathname + url.search)}`);
      if (req.headers.get('authorization') !== `Token token=${PAGERDUTY_TOKEN}`) return Response.json({ error: { message: 'Unauthorized', code: 2006 } }, { status: 401 });
      if (o.throttleOnce?.includes(url.pathname) && !throttled.has(url.pathname)) {
        throttled.add(url.pathname);
        return Response.json({ error: { message: 'Rate Limit Exceeded', code: 2020 } }, { status: 429, headers: { 'ratelimit-limit': '960', 'ratelimit-remaining': '0', 'ratelimit-reset': '20' } });
      }
      const p = url.pathname;
      const one = /^\/schedules\/([^/]+)(\/overrides)?$/.exec(p);
      if (p === '/users') return Response.json(page(url, 'users', USERS, o.pageSize ?? 2));
      if (p === '/schedules') return Response.json(page(url, 'schedules', Object.values(SCHEDULES).map(({ schedule_layers: _, final_schedule: __, ...s }) => s), 100));
      if (one && one[2]) return Response.json({ overrides: OVERRIDES[one[1]!] ?? [] });
      if (one && SCHEDULES[one[1]!] && o.finalSchedule) {
        const since = url.searchParams.get('since')!;
        const until = url.searchParams.get('until')!;
        const user = (id: string) => USERS.find((u) => u.id === id)!;
        const entries = o.finalSchedule(one[1]!, since, until).map((e) => ({ start: e.start, end: e.end, user: ref(e.user, 'user_reference', user(e.user).name) }));
        return Response.json({ schedule: { ...SCHEDULES[one[1]!], final_schedule: { name: 'Final Schedule', rendered_schedule_entries: entries, rendered_coverage_percentage: null } } });
      }
      if (one) return SCHEDULES[one[1]!] ? Response.json({ schedule: SCHEDULES[one[1]!] }) : Response.json({ error: { message: 'Not Found', code: 2100 } }, { status: 404 });
      if (p === '/escalation_policies') return Response.json(page(url, 'escalation_policies', POLICIES, 100));
      if (p === '/services') return Response.json(page(url, 'services', SERVICES, 100));
      return Response.json({ error: { message: 'Not Found', code: 2100 } }, { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
