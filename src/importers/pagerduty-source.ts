import { sourceHttp, type SourceHttpOptions } from './source-http';

/**
 * PagerDuty's REST API v2, read-only (developer.pagerduty.com "API Reference": Users with
 * `include[]=contact_methods`, Schedules with their layers and final schedule, Overrides,
 * Escalation Policies, Services with `include[]=integrations`). `Authorization: Token
 * token=<token>`; lists are read with `limit` 100 and `offset` while `more` is true
 * (developer-docs "Pagination").
 */
export const PAGERDUTY_API = 'https://api.pagerduty.com';

export interface PdRef {
  id: string;
  type: string;
  summary?: string;
}
export interface PdContactMethod {
  id: string;
  type: 'phone_contact_method' | 'sms_contact_method' | 'email_contact_method' | 'push_notification_contact_method' | string;
  address: string;
  country_code?: number;
  label?: string;
}
export interface PdUser {
  id: string;
  name: string;
  email: string;
  time_zone?: string;
  locale?: string;
  contact_methods?: PdContactMethod[];
}
export type PdRestriction =
  | { type: 'daily_restriction'; start_time_of_day: string; duration_seconds: number }
  | { type: 'weekly_restriction'; start_time_of_day: string; duration_seconds: number; start_day_of_week: number };
export interface PdLayer {
  id: string;
  name?: string;
  start: string;
  end?: string | null;
  rotation_virtual_start: string;
  rotation_turn_length_seconds: number;
  users: { user: PdRef }[];
  restrictions?: PdRestriction[];
}
export interface PdEntry {
  start: string;
  end: string;
  user?: PdRef;
}
export interface PdSchedule {
  id: string;
  name: string;
  time_zone: string;
  schedule_layers?: PdLayer[];
  final_schedule?: { rendered_schedule_entries?: PdEntry[] };
}
export interface PdOverride {
  id: string;
  start: string;
  end: string;
  user: PdRef;
}
export interface PdEscalationPolicy {
  id: string;
  name: string;
  num_loops?: number;
  escalation_rules: { id?: string; escalation_delay_in_minutes: number; targets: PdRef[] }[];
}
export interface PdIntegration {
  id: string;
  type: string;
  summary?: string;
  name?: string;
  integration_key?: string;
}
export interface PdService {
  id: string;
  name: string;
  escalation_policy?: PdRef;
  integrations?: PdIntegration[];
}

export interface PagerDutyExport {
  users: PdUser[];
  schedules: (PdSchedule & { overrides: PdOverride[] })[];
  escalationPolicies: PdEscalationPolicy[];
  services: PdService[];
}

export interface PagerDutySourceOptions extends Omit<SourceHttpOptions, 'source' | 'headers' | 'baseUrl'> {
  token: string;
  baseUrl?: string;
}

export function pagerDutySource(o: PagerDutySourceOptions) {
  const http = sourceHttp({
    ...o,
    source: 'PagerDuty',
    baseUrl: o.baseUrl ?? PAGERDUTY_API,
    headers: { authorization: `Token token=${o.token}`, accept: 'application/vnd.pagerduty+json;version=2' },
  });
  /** Every page of a classic list: `offset` moves by what came back while `more` is true. */
  const all = async <T>(path: string, field: string, query: Record<string, string | readonly string[]> = {}): Promise<T[]> => {
    const out: T[] = [];
    for (let offset = 0; ; ) {
      const body = (await http.get(path, { ...query, limit: 100, offset })) as Record<string, unknown> & { more?: boolean };
      const items = (body[field] as T[] | undefined) ?? [];
      out.push(...items);
      if (!body.more || items.length === 0) return out;
      offset += items.length;
    }
  };
  return {
    users: () => all<PdUser>('/users', 'users', { 'include[]': ['contact_methods'] }),
    schedules: () => all<PdSchedule>('/schedules', 'schedules'),
    /** One schedule with its layers and its final (rendered) schedule over [since, until). */
    schedule: async (id: string, since: string, until: string) =>
      ((await http.get(`/schedules/${encodeURIComponent(id)}`, { since, until })) as { schedule: PdSchedule }).schedule,
    overrides: async (id: string, since: string, until: string) =>
      ((await http.get(`/schedules/${encodeURIComponent(id)}/overrides`, { since, until })) as { overrides?: PdOverride[] }).overrides ?? [],
    escalationPolicies: () => all<PdEscalationPolicy>('/escalation_policies', 'escalation_policies'),
    services: () => all<PdService>('/services', 'services', { 'include[]': ['integrations'] }),
  };
}

export type PagerDutySource = ReturnType<typeof pagerDutySource>;

/** Reads everything the plan needs; schedules with their final schedule over the next `days` from `now`. */
export async function readPagerDuty(src: PagerDutySource, now: number, days = 14): Promise<PagerDutyExport> {
  const since = new Date(now).toISOString();
  const until = new Date(now + days * 86_400_000).toISOString();
  const users = await src.users();
  const schedules = [];
  for (const s of await src.schedules()) schedules.push({ ...(await src.schedule(s.id, since, until)), overrides: await src.overrides(s.id, since, until) });
  return { users, schedules, escalationPolicies: await src.escalationPolicies(), services: await src.services() };
}
