import { sourceHttp, SourceError, type SourceHttpOptions } from './source-http';

/**
 * Opsgenie's REST API, read-only (docs.opsgenie.com "User API", "Contact API", "Team API",
 * "Schedule API", "Schedule Override API", "Escalation API", "Heartbeat API", "Maintenance API",
 * "Integration API"), as the importer needs it. `Authorization: GenieKey <key>`; the US host
 * `https://api.opsgenie.com` or the EU one `https://api.eu.opsgenie.com` (`--api-url`). Lists
 * are read page by page (`limit` 100, then `paging.next` until there is none).
 */
export const OPSGENIE_US = 'https://api.opsgenie.com';
export const OPSGENIE_EU = 'https://api.eu.opsgenie.com';

export interface OgRef {
  type: string;
  id?: string;
  name?: string;
  username?: string;
}
export interface OgUser {
  id: string;
  username: string;
  fullName: string;
  timeZone?: string;
  locale?: string;
}
export interface OgContact {
  id: string;
  method: 'voice' | 'sms' | 'email' | 'mobile' | string;
  to: string;
  enabled?: boolean;
  status?: { enabled?: boolean };
}
export interface OgTeam {
  id: string;
  name: string;
  members?: { user: { id: string; username: string }; role?: string }[];
}
export type OgRestriction =
  | { type: 'time-of-day'; restriction: { startHour: number; startMin: number; endHour: number; endMin: number } }
  | {
      type: 'weekday-and-time-of-day';
      restrictions: { startDay: string; startHour: number; startMin: number; endDay: string; endHour: number; endMin: number }[];
    };
export interface OgRotation {
  id: string;
  name: string;
  startDate: string;
  endDate?: string;
  type: 'hourly' | 'daily' | 'weekly' | string;
  length?: number;
  participants: OgRef[];
  timeRestriction?: OgRestriction | null;
}
export interface OgSchedule {
  id: string;
  name: string;
  timezone: string;
  enabled?: boolean;
  ownerTeam?: { id: string; name: string };
  rotations?: OgRotation[];
}
export interface OgOverride {
  alias: string;
  user: OgRef;
  startDate: string;
  endDate: string;
  rotations?: { id: string; name: string }[];
}
export interface OgEscalationRule {
  condition: 'if-not-acked' | 'if-not-closed' | string;
  notifyType: string;
  delay: { timeAmount: number; timeUnit?: 'minutes' | 'hours' | 'days' | string };
  recipient: OgRef;
}
export interface OgEscalation {
  id: string;
  name: string;
  ownerTeam?: { id: string; name: string };
  rules: OgEscalationRule[];
  repeat?: { waitInterval?: number; count?: number; resetRecipientStates?: boolean; closeAlertAfterAll?: boolean };
}
export interface OgHeartbeat {
  name: string;
  description?: string;
  interval: number;
  intervalUnit: 'minutes' | 'hours' | 'days' | string;
  enabled: boolean;
  ownerTeam?: { id: string; name: string };
  alertMessage?: string;
}
export interface OgMaintenance {
  id: string;
  status?: string;
  description?: string;
  time: { type: string; startDate?: string; endDate?: string };
  rules?: { state: string; entity: { id: string; type: string } }[];
}
export interface OgIntegration {
  id: string;
  name: string;
  type: string;
  enabled?: boolean;
}
/** A schedule's own on-call timeline (for `--check`): who is on call from when to when. */
export interface OgTimelinePeriod {
  startDate: string;
  endDate: string;
  type?: string;
  recipient: OgRef;
}

/** Everything the plan is made from, as Opsgenie gave it. */
export interface OpsgenieExport {
  users: (OgUser & { contacts: OgContact[] })[];
  teams: OgTeam[];
  schedules: (OgSchedule & { overrides: OgOverride[] })[];
  escalations: OgEscalation[];
  heartbeats: OgHeartbeat[];
  maintenance: OgMaintenance[];
  integrations: OgIntegration[];
}

export interface OpsgenieSourceOptions extends Omit<SourceHttpOptions, 'source' | 'headers' | 'baseUrl'> {
  apiKey: string;
  /** Default: the US host. */
  baseUrl?: string;
}

type Envelope = { data?: unknown; paging?: { next?: string } };

export function opsgenieSource(o: OpsgenieSourceOptions) {
  const http = sourceHttp({ ...o, source: 'Opsgenie', baseUrl: o.baseUrl ?? OPSGENIE_US, headers: { authorization: `GenieKey ${o.apiKey}` } });
  const data = async <T>(path: string, query?: Record<string, string | number>): Promise<T> => {
    const body = (await http.get(path, query)) as Envelope;
    if (body.data === undefined) throw new SourceError(`Opsgenie answered GET ${path} without data`, 200);
    return body.data as T;
  };
  /** Every page of a list: `limit` 100, then each `paging.next` Opsgenie gives. */
  const all = async <T>(path: string, query: Record<string, string | number> = {}): Promise<T[]> => {
    const out: T[] = [];
    let body = (await http.get(path, { limit: 100, offset: 0, ...query })) as Envelope;
    for (;;) {
      out.push(...((body.data as T[] | undefined) ?? []));
      if (!body.paging?.next) return out;
      body = (await http.get(body.paging.next)) as Envelope;
    }
  };
  return {
    users: () => all<OgUser>('/v2/users'),
    contacts: (userId: string) => data<OgContact[]>(`/v2/users/${encodeURIComponent(userId)}/contacts`),
    team: (id: string) => data<OgTeam>(`/v2/teams/${encodeURIComponent(id)}`, { identifierType: 'id' }),
    schedules: () => all<OgSchedule>('/v2/schedules', { expand: 'rotation' }),
    overrides: (scheduleId: string) => data<OgOverride[]>(`/v2/schedules/${encodeURIComponent(scheduleId)}/overrides`, { scheduleIdentifierType: 'id' }),
    /** The schedule's final timeline for `days` from `date`, each period with its rotation's id (--check compares ours with it). */
    timeline: async (scheduleId: string, date: string, days: number) => {
      const d = await data<{ finalTimeline?: { rotations?: { id: string; periods?: OgTimelinePeriod[] }[] } }>(`/v2/schedules/${encodeURIComponent(scheduleId)}/timeline`, {
        identifierType: 'id',
        interval: days,
        intervalUnit: 'days',
        date,
      });
      return (d.finalTimeline?.rotations ?? []).flatMap((r) => (r.periods ?? []).map((p) => ({ ...p, rotationId: r.id })));
    },
    escalations: () => data<OgEscalation[]>('/v2/escalations'),
    heartbeats: async () => (await data<{ heartbeats?: OgHeartbeat[] }>('/v2/heartbeats')).heartbeats ?? [],
    maintenance: async () => {
      const list = await data<OgMaintenance[]>('/v2/maintenance', { type: 'non-expired' });
      // The list leaves out the rules: each window's own read has them.
      return Promise.all(list.map((m) => data<OgMaintenance>(`/v2/maintenance/${encodeURIComponent(m.id)}`)));
    },
    integrations: () => all<OgIntegration>('/v2/integrations'),
  };
}

export type OpsgenieSource = ReturnType<typeof opsgenieSource>;

/** Reads everything the plan needs, one request after another (the source's rate limits are per key). */
export async function readOpsgenie(src: OpsgenieSource): Promise<OpsgenieExport> {
  const users = [];
  for (const u of await src.users()) users.push({ ...u, contacts: await src.contacts(u.id) });
  const schedules = [];
  for (const s of await src.schedules()) schedules.push({ ...s, overrides: await src.overrides(s.id) });
  const escalations = await src.escalations();
  // Teams named as participants or recipients: their members are who they stand for.
  const teamIds = new Set<string>();
  for (const s of schedules) for (const r of s.rotations ?? []) for (const p of r.participants) if (p.type === 'team' && p.id) teamIds.add(p.id);
  for (const e of escalations) for (const r of e.rules) if (r.recipient.type === 'team' && r.recipient.id) teamIds.add(r.recipient.id);
  const teams = [];
  for (const id of teamIds) teams.push(await src.team(id));
  return { users, teams, schedules, escalations, heartbeats: await src.heartbeats(), maintenance: await src.maintenance(), integrations: await src.integrations() };
}
