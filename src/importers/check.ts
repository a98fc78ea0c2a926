import type { Clock } from '../clock';
import type { SchedulesService } from '../schedules';
import type { Store } from '../store';
import type { ImportPlan, PlannedSchedule } from './plan';

/**
 * `voice-alert import … --check` (docs/integrations.md "Moving from Opsgenie or PagerDuty"): for
 * every schedule an apply imported, who the source itself says is on call (Opsgenie's schedule
 * timeline, PagerDuty's final schedule) against who ours puts on call (src/schedules' shifts),
 * minute by minute over the next 14 days. Each stretch where they differ is one disagreement.
 */
export const CHECK_DAYS = 14;
const MINUTE = 60_000;

/** Someone on call from `start` to `end` (ms), named as a person here is named. */
export interface OnCallPeriod {
  start: number;
  end: number;
  who: string;
}

export interface Disagreement {
  from: string;
  to: string;
  /** Who the source has on call (several joined by " + "); null: nobody. */
  theirs: string | null;
  ours: string | null;
}

/** What `import … --check --json` prints, and the panel shows as the last check (docs/panel.md "Import"). */
export interface ImportCheck {
  source: 'opsgenie' | 'pagerduty';
  account: string;
  from: string;
  to: string;
  schedules: ScheduleCheck[];
}

export interface ScheduleCheck {
  schedule: string;
  /** Why it was not compared (never imported); else absent. */
  why?: string;
  disagreements: Disagreement[];
}

/** Who is on call at each minute of [from, to), as one label a minute. */
function byMinute(from: number, to: number, periods: readonly OnCallPeriod[]): (string | null)[] {
  const n = Math.ceil((to - from) / MINUTE);
  const sets: (Set<string> | null)[] = new Array(n).fill(null);
  for (const p of periods) {
    const a = Math.max(0, Math.floor((p.start - from) / MINUTE));
    const b = Math.min(n, Math.ceil((p.end - from) / MINUTE));
    for (let i = a; i < b; i++) (sets[i] ??= new Set()).add(p.who);
  }
  return sets.map((s) => (s && s.size > 0 ? [...s].sort().join(' + ') : null));
}

/** The stretches of [from, to) where the two timelines name someone else, minute by minute. */
export function compareTimelines(from: number, to: number, theirs: readonly OnCallPeriod[], ours: readonly OnCallPeriod[]): Disagreement[] {
  const t = byMinute(from, to, theirs);
  const o = byMinute(from, to, ours);
  const out: Disagreement[] = [];
  let open: { start: number; theirs: string | null; ours: string | null } | null = null;
  const close = (end: number) => {
    if (open) out.push({ from: new Date(from + open.start * MINUTE).toISOString(), to: new Date(Math.min(to, from + end * MINUTE)).toISOString(), theirs: open.theirs, ours: open.ours });
    open = null;
  };
  for (let i = 0; i < t.length; i++) {
    if (t[i] === o[i]) {
      close(i);
      continue;
    }
    if (open && open.theirs === t[i] && open.ours === o[i]) continue;
    close(i);
    open = { start: i, theirs: t[i]!, ours: o[i]! };
  }
  close(t.length);
  return out;
}

export interface CheckDeps {
  store: Store;
  clock: Clock;
  /** Ours: the registry's schedules service (src/services.ts). */
  schedules: Pick<SchedulesService, 'shifts'>;
  /** The source's own timeline of a planned schedule over [from, to), its people named by the source's user id. */
  theirs(schedule: PlannedSchedule, from: number, to: number): Promise<{ start: number; end: number; userId: string; label: string }[]>;
}

/** Every schedule of the plan an apply imported, compared over [from, from + 14 days). */
export async function checkImport(plan: ImportPlan, from: number, d: CheckDeps): Promise<ScheduleCheck[]> {
  const to = from + CHECK_DAYS * 86_400_000;
  const { schedules } = d;
  const out: ScheduleCheck[] = [];
  for (const o of plan.objects) {
    if (o.kind !== 'schedule' || o.action === 'skip') continue;
    const rec = await d.store.importSources.find(plan.account, plan.source, 'schedule', o.source_id);
    const record = rec ? await d.store.schedules.get(rec.objectId) : null;
    if (!record) {
      out.push({ schedule: o.name, why: 'not imported yet: apply the import first (--apply, or Apply in the panel)', disagreements: [] });
      continue;
    }
    const ours = (await schedules.shifts(record, from, to)).filter((s) => s.name !== null || s.number).map((s) => ({ start: s.start, end: s.end, who: s.name ?? s.number }));
    // The source's users as the people they became here (a person renamed here keeps matching).
    const names = new Map<string, string>();
    const theirs: OnCallPeriod[] = [];
    for (const p of await d.theirs(o, from, to)) {
      if (!names.has(p.userId)) {
        const person = await d.store.importSources.find(plan.account, plan.source, 'person', p.userId);
        const found = person ? await d.store.people.get(person.objectId) : null;
        names.set(p.userId, found?.name ?? p.label);
      }
      theirs.push({ start: p.start, end: p.end, who: names.get(p.userId)! });
    }
    out.push({ schedule: o.name, disagreements: compareTimelines(from, to, theirs, ours) });
  }
  return out;
}
