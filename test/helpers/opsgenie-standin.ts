/**
 * A stand-in for Opsgenie's REST API on 127.0.0.1 (docs/integrations.md "Moving from Opsgenie or
 * PagerDuty"), serving the JSON shapes docs.opsgenie.com documents (`data`, `paging`, `took`,
 * `requestId`) for one team: users over several pages, contacts (`90-5321111111`), teams, a
 * schedule in America/New_York whose rotations began before the DST change with restrictions of
 * both kinds, an override and a team participant, escalations (a schedule with `repeat`),
 * heartbeats (one in hours), maintenance and integrations. `GenieKey good-key` only; a path
 * listed in `throttleOnce` answers its first request 429 with Opsgenie's rate-limit headers;
 * `failUsersAtOffset` makes that page of users a 500. `schedules` and `timeline` replace the
 * schedules (without overrides) and the timeline (--check's tests: a timeline written apart).
 */
export const OPSGENIE_KEY = 'good-key';

const user = (id: string, username: string, fullName: string, timeZone: string, locale: string) => ({
  id,
  username,
  fullName,
  role: { id: 'User', name: 'User' },
  blocked: false,
  verified: true,
  timeZone,
  locale,
  createdAt: '2024-01-01T00:00:00.000Z',
});

export const OG_USERS = [
  user('u-ayse', 'ayse@example.com', 'Ayşe Yılmaz', 'Europe/Istanbul', 'tr_TR'),
  user('u-bora', 'bora@example.com', 'Bora Kaya', 'Europe/Istanbul', 'tr_TR'),
  user('u-john', 'john@example.com', 'John Smith', 'America/New_York', 'en_US'),
  user('u-cem', 'cem@example.com', 'Cem Demir', 'Europe/Istanbul', 'tr_TR'),
  user('u-deniz', 'deniz@example.com', 'Deniz Ak', 'Europe/Istanbul', 'tr_TR'),
];

const contact = (id: string, method: string, to: string) => ({ id, method, to, status: { enabled: true }, enabled: true });
const CONTACTS: Record<string, unknown[]> = {
  // Two voice contacts and an SMS contact, as Opsgenie writes phone numbers.
  'u-ayse': [contact('c1', 'voice', '90-5321111111'), contact('c2', 'voice', '90-5322222222'), contact('c3', 'sms', '90-5323333333'), contact('c4', 'email', 'ayse.home@example.com')],
  'u-bora': [contact('c5', 'voice', '90-5324444444')],
  // Outside numbers.accept (tr-mobile by default).
  'u-john': [contact('c6', 'voice', '1-2125551234')],
  'u-cem': [contact('c7', 'voice', '90-5325555555')],
  'u-deniz': [contact('c8', 'voice', '90-5326666666')],
};

const TEAMS: Record<string, unknown> = {
  't-dba': { id: 't-dba', name: 'dba', members: [{ user: { id: 'u-cem', username: 'cem@example.com' }, role: 'admin' }, { user: { id: 'u-deniz', username: 'deniz@example.com' }, role: 'user' }] },
  't-empty': { id: 't-empty', name: 'empty', members: [] },
};

const participant = (id: string, username: string) => ({ type: 'user', id, username });

export const OG_SCHEDULES = [
  {
    id: 's-noc',
    name: 'noc',
    description: '',
    timezone: 'America/New_York',
    enabled: true,
    ownerTeam: { id: 't-dba', name: 'dba' },
    rotations: [
      {
        id: 'r-days',
        name: 'days',
        // 09:00 EDT, the week before DST ends (2026-11-01): still 09:00 local after it.
        startDate: '2026-10-26T13:00:00Z',
        type: 'weekly',
        length: 1,
        participants: [participant('u-ayse', 'ayse@example.com'), participant('u-bora', 'bora@example.com')],
        timeRestriction: { type: 'time-of-day', restriction: { startHour: 9, startMin: 0, endHour: 18, endMin: 0 } },
      },
      {
        id: 'r-nights',
        name: 'nights',
        startDate: '2026-10-26T22:00:00Z',
        type: 'daily',
        length: 1,
        participants: [participant('u-bora', 'bora@example.com'), participant('u-ayse', 'ayse@example.com')],
        timeRestriction: {
          type: 'weekday-and-time-of-day',
          restrictions: [
            { startDay: 'monday', startHour: 18, startMin: 0, endDay: 'tuesday', endHour: 9, endMin: 0 },
            { startDay: 'friday', startHour: 18, startMin: 0, endDay: 'saturday', endHour: 9, endMin: 0 },
          ],
        },
      },
      {
        id: 'r-backup',
        name: 'backup',
        startDate: '2026-10-26T12:00:00Z',
        type: 'hourly',
        length: 12,
        participants: [participant('u-cem', 'cem@example.com'), participant('u-deniz', 'deniz@example.com')],
      },
      { id: 'r-team', name: 'dba team', startDate: '2026-10-26T12:00:00Z', type: 'weekly', length: 1, participants: [{ type: 'team', id: 't-dba', name: 'dba' }] },
      { id: 'r-old', name: 'old', startDate: '2025-01-01T00:00:00Z', endDate: '2025-06-01T00:00:00Z', type: 'weekly', length: 1, participants: [participant('u-bora', 'bora@example.com')] },
    ],
  },
  {
    id: 's-john',
    name: 'us-only',
    timezone: 'UTC',
    enabled: true,
    rotations: [{ id: 'r-john', name: 'john', startDate: '2026-10-26T00:00:00Z', type: 'daily', length: 1, participants: [participant('u-john', 'john@example.com')] }],
  },
];

const OVERRIDES: Record<string, unknown[]> = {
  's-noc': [
    { alias: 'o-deniz', user: { type: 'user', id: 'u-deniz', username: 'deniz@example.com' }, startDate: '2099-11-20T00:00:00Z', endDate: '2099-11-21T00:00:00Z', rotations: [{ id: 'r-days', name: 'days' }] },
    { alias: 'o-past', user: { type: 'user', id: 'u-cem', username: 'cem@example.com' }, startDate: '2020-01-01T00:00:00Z', endDate: '2020-01-02T00:00:00Z' },
  ],
  's-john': [],
};

const rule = (condition: string, notifyType: string, minutes: number, recipient: Record<string, string>) => ({ condition, notifyType, delay: { timeAmount: minutes, timeUnit: 'minutes' }, recipient });

export const OG_ESCALATIONS = [
  {
    id: 'e-noc',
    name: 'noc-escalation',
    description: '',
    ownerTeam: { id: 't-dba', name: 'dba' },
    rules: [
      rule('if-not-acked', 'default', 0, { type: 'schedule', id: 's-noc', name: 'noc' }),
      rule('if-not-acked', 'default', 5, { type: 'user', id: 'u-bora', username: 'bora@example.com' }),
      rule('if-not-acked', 'all', 15, { type: 'team', id: 't-dba', name: 'dba' }),
      rule('if-not-acked', 'random', 20, { type: 'team', id: 't-dba', name: 'dba' }),
      rule('if-not-closed', 'default', 30, { type: 'user', id: 'u-ayse', username: 'ayse@example.com' }),
      rule('if-not-acked', 'next', 30, { type: 'schedule', id: 's-noc', name: 'noc' }),
    ],
    repeat: { waitInterval: 10, count: 2, resetRecipientStates: false, closeAlertAfterAll: false },
  },
  { id: 'e-empty', name: 'empty-team', rules: [rule('if-not-acked', 'all', 0, { type: 'team', id: 't-empty', name: 'empty' })] },
];

const HEARTBEATS = [
  { name: 'nightly-backup', description: '', interval: 2, intervalUnit: 'hours', enabled: true, expired: false, ownerTeam: { id: 't-dba', name: 'dba' }, alertMessage: 'Backup did not report', alertTags: [], alertPriority: 'P3' },
  { name: 'orphan', description: '', interval: 10, intervalUnit: 'minutes', enabled: false, expired: false, alertMessage: '', alertTags: [], alertPriority: 'P3' },
];

const INTEGRATIONS = [
  { id: 'i-prom', name: 'Prometheus', enabled: true, type: 'Prometheus', teamId: 't-dba' },
  { id: 'i-api', name: 'Default API', enabled: true, type: 'API' },
];

const MAINTENANCE: Record<string, Record<string, unknown>> = {
  'm-all': {
    id: 'm-all',
    status: 'planned',
    description: 'core switch upgrade',
    time: { type: 'schedule', startDate: '2099-12-01T22:00:00Z', endDate: '2099-12-02T02:00:00Z' },
    rules: [{ state: 'disabled', entity: { id: 'i-prom', type: 'integration' } }, { state: 'disabled', entity: { id: 'i-api', type: 'integration' } }],
  },
  'm-some': {
    id: 'm-some',
    status: 'planned',
    description: 'prometheus only',
    time: { type: 'schedule', startDate: '2099-12-03T22:00:00Z', endDate: '2099-12-04T02:00:00Z' },
    rules: [{ state: 'disabled', entity: { id: 'i-prom', type: 'integration' } }],
  },
  'm-forever': { id: 'm-forever', status: 'active', description: 'lab', time: { type: 'indefinitely' }, rules: [{ state: 'disabled', entity: { id: 'i-api', type: 'integration' } }] },
};

/** Get Schedule Timeline (docs.opsgenie.com "Schedule API"): `finalTimeline.rotations[].periods[]`. */
function TIMELINE(scheduleId: string, url: URL) {
  const start = url.searchParams.get('date') ?? '2026-11-15T12:00:00Z';
  const period = (from: string, to: string, id: string, name: string) => ({ startDate: from, endDate: to, type: 'default', recipient: { id, type: 'user', name } });
  return {
    _parent: { id: scheduleId, name: 'noc', enabled: true },
    startDate: start,
    endDate: new Date(Date.parse(start) + Number(url.searchParams.get('interval') ?? 1) * 86_400_000).toISOString(),
    finalTimeline: {
      rotations: [
        { id: 'r-days', name: 'days', order: 1, periods: [period('2026-11-16T14:00:00Z', '2026-11-16T23:00:00Z', 'u-bora', 'bora@example.com')] },
        { id: 'r-backup', name: 'backup', order: 3, periods: [period('2026-11-16T12:00:00Z', '2026-11-17T00:00:00Z', 'u-cem', 'cem@example.com')] },
      ],
    },
  };
}

/** A timeline given by a test, in Get Schedule Timeline's shape; users by id, named by their username. */
function customTimeline(scheduleId: string, url: URL, rotations: TimelineRotation[]) {
  const username = (id: string) => OG_USERS.find((u) => u.id === id)?.username ?? id;
  const start = url.searchParams.get('date')!;
  return {
    _parent: { id: scheduleId, enabled: true },
    startDate: start,
    endDate: new Date(Date.parse(start) + Number(url.searchParams.get('interval') ?? 1) * 86_400_000).toISOString(),
    finalTimeline: {
      rotations: rotations.map((r, i) => ({
        id: r.id,
        name: r.name,
        order: i + 1,
        periods: r.periods.map((p) => ({ startDate: p.startDate, endDate: p.endDate, type: 'default', recipient: { id: p.user, type: 'user', name: username(p.user) } })),
      })),
    },
  };
}

export interface StandIn {
  url: string;
  /** Every request: method and path with its query. */
  requests: string[];
  stop(): void;
}

/** A list's page as Opsgenie pages it: `pageSize` at most, with `paging.next` while there is more. */
function page(url: URL, items: unknown[], pageSize: number) {
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), pageSize);
  const link = (o: number) => {
    const u = new URL(url);
    u.searchParams.set('offset', String(o));
    u.searchParams.set('limit', String(limit));
    return u.toString();
  };
  const paging: Record<string, string> = { first: link(0), last: link(Math.max(0, Math.floor((items.length - 1) / limit) * limit)) };
  if (offset + limit < items.length) paging.next = link(offset + limit);
  return { data: items.slice(offset, offset + limit), paging, totalCount: items.length };
}

export interface TimelineRotation {
  id: string;
  name: string;
  periods: { startDate: string; endDate: string; user: string }[];
}

export function startOpsgenieStandIn(
  o: { throttleOnce?: string[]; pageSize?: number; failUsersAtOffset?: number; schedules?: unknown[]; timeline?: (scheduleId: string, url: URL) => TimelineRotation[] } = {},
): StandIn {
  const requests: string[] = [];
  const throttled = new Set<string>();
  const answer = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    Response.json({ ...body, took: 0.01, requestId: crypto.randomUUID() }, { status, headers });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.method} ${url.pathname}${url.search}`);
      if (req.headers.get('authorization') !== `GenieKey ${OPSGENIE_KEY}`) return answer(401, { message: 'Could not authenticate' });
      if (o.throttleOnce?.includes(url.pathname) && !throttled.has(url.pathname)) {
        throttled.add(url.pathname);
        // Opsgenie's rate limiting headers (docs.opsgenie.com "API Rate Limiting").
        return answer(429, { message: 'You are making too many requests! To avoid errors, we recommend you limit requests.' }, {
          'X-RateLimit-State': 'THROTTLED',
          'X-RateLimit-Reason': 'INTEGRATION',
          'X-RateLimit-Period-In-Sec': '60',
        });
      }
      const p = url.pathname;
      const m = (re: RegExp) => re.exec(p);
      let r: RegExpExecArray | null;
      if (p === '/v2/users' && o.failUsersAtOffset !== undefined && Number(url.searchParams.get('offset')) === o.failUsersAtOffset) {
        return answer(500, { message: 'Internal Server Error' });
      }
      if (p === '/v2/users') return answer(200, page(url, OG_USERS, o.pageSize ?? 2));
      if ((r = m(/^\/v2\/users\/([^/]+)\/contacts$/))) return answer(200, { data: CONTACTS[r[1]!] ?? [] });
      if ((r = m(/^\/v2\/teams\/([^/]+)$/))) return TEAMS[r[1]!] ? answer(200, { data: TEAMS[r[1]!] }) : answer(404, { message: 'No team exists with id' });
      if (p === '/v2/schedules') return answer(200, page(url, o.schedules ?? OG_SCHEDULES, 100));
      if ((r = m(/^\/v2\/schedules\/([^/]+)\/overrides$/))) return answer(200, { data: OVERRIDES[r[1]!] ?? [] });
      if ((r = m(/^\/v2\/schedules\/([^/]+)\/timeline$/))) return answer(200, { data: o.timeline ? customTimeline(r[1]!, url, o.timeline(r[1]!, url)) : TIMELINE(r[1]!, url) });
      if (p === '/v2/escalations') return answer(200, { data: OG_ESCALATIONS });
      if (p === '/v2/heartbeats') return answer(200, { data: { heartbeats: HEARTBEATS } });
      if (p === '/v2/maintenance') return answer(200, { data: Object.values(MAINTENANCE).map(({ rules: _, ...m }) => m) });
      if ((r = m(/^\/v2\/maintenance\/([^/]+)$/))) return answer(200, { data: MAINTENANCE[r[1]!] });
      if (p === '/v2/integrations') return answer(200, page(url, INTEGRATIONS, 100));
      return answer(404, { message: 'Not found' });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
