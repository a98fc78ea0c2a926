import type { Clock } from '../clock';
import type { NumberForm } from '../phone';
import type { SchedulesService } from '../schedules';
import type { Store } from '../store';
import { applyPlan, ImportRefused, type ImportWriters } from './apply';
import { CHECK_DAYS, checkImport, type CheckDeps, type ImportCheck } from './check';
import { planOpsgenie } from './opsgenie-plan';
import { OPSGENIE_EU, OPSGENIE_US, opsgenieSource, readOpsgenie } from './opsgenie-source';
import { planPagerDuty } from './pagerduty-plan';
import { PAGERDUTY_API, pagerDutySource, readPagerDuty } from './pagerduty-source';
import type { ImportPlan, PlanContext } from './plan';
import { SourceError } from './source-http';

/**
 * One import, as `voice-alert import opsgenie|pagerduty` and the panel's Import page both run
 * it (docs/integrations.md "Moving from Opsgenie or PagerDuty", docs/panel.md "Import"): read
 * the team from the source, plan it against what is here, apply it when asked (all or nothing)
 * and record the applied plan, compare the timelines when asked and record the check. The
 * callers only gather the choices (the CLI from flags and the environment, the panel from a
 * form) and show the outcome.
 *
 * The key is a parameter of this one run: it goes into the source's Authorization header and
 * nowhere else (never into the plan, a record, an error or a log line).
 */
export const IMPORT_SOURCES = ['opsgenie', 'pagerduty'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Opsgenie's two hosts (docs.opsgenie.com "API Access": US, EU); PagerDuty has one REST host. */
export type OpsgenieRegion = 'us' | 'eu';

/**
 * The source's API base URL: `apiUrl` when given (the CLI's `--api-url`: the EU host, a proxy,
 * a test's stand-in), else Opsgenie's host of `region` (US by default), else PagerDuty's.
 * Null when `apiUrl` is not an http(s) URL.
 */
export function sourceApiUrl(source: ImportSource, choice: { region?: OpsgenieRegion; apiUrl?: string } = {}): string | null {
  const given = choice.apiUrl?.trim();
  if (given) {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      return null;
    }
    return url.protocol === 'http:' || url.protocol === 'https:' ? given.replace(/\/+$/, '') : null;
  }
  if (source === 'pagerduty') return PAGERDUTY_API;
  return choice.region === 'eu' ? OPSGENIE_EU : OPSGENIE_US;
}

export interface ImportRequest {
  source: ImportSource;
  account: string;
  /** The source's read-only API key (Opsgenie) or REST API token (PagerDuty): used for this run only. */
  key: string;
  /** From sourceApiUrl. */
  apiUrl: string;
  /** This appliance's base URL as the tools will reach it, for the integrations' list. */
  applianceUrl: string;
  /** Write the plan (one transaction) and record it as the last applied; else a dry run. */
  apply: boolean;
  /** Then compare the source's timeline with ours for CHECK_DAYS from `from` and record it. */
  check: boolean;
  /** The check's start (ms); default now. */
  from?: number;
}

export type ImportOutcome =
  | { ok: true; plan: ImportPlan; check: ImportCheck | null }
  /** The source refused or could not be reached (SourceError's words: "Opsgenie answered 401: …"); `applied` when the apply had committed before the check failed. */
  | { ok: false; code: 'source_failed'; message: string; status: number | null; applied: boolean }
  /** A service refused an object: nothing was written (ImportRefused's words). */
  | { ok: false; code: 'import_refused'; message: string }
  | { ok: false; code: 'no_key'; message: string };

export interface ImportService {
  run(request: ImportRequest): Promise<ImportOutcome>;
}

export interface ImportServiceDeps {
  store: Store;
  clock: Clock;
  /** numbers.accept: the forms a source's numbers are turned into. */
  numberForms: readonly NumberForm[];
  /** Ours, for the check: the registry's schedules service. */
  schedules: Pick<SchedulesService, 'shifts'>;
  /** The registry's services over another store (the apply's transaction): see ApplyDeps. */
  servicesOn(store: Store): ImportWriters;
  /** Tests only: how the source is fetched. */
  fetch?: typeof fetch;
}

type Theirs = CheckDeps['theirs'];

/** The source read and planned, and how its own timeline is read for the check. */
async function readSource(r: ImportRequest, ctx: PlanContext, doFetch: typeof fetch | undefined): Promise<{ plan: ImportPlan; theirs: Theirs }> {
  const http = doFetch ? { fetch: doFetch } : {};
  if (r.source === 'opsgenie') {
    const src = opsgenieSource({ apiKey: r.key, baseUrl: r.apiUrl, ...http });
    // Opsgenie's schedule timeline, one per source schedule, each period with its rotation.
    const timelines = new Map<string, Awaited<ReturnType<typeof src.timeline>>>();
    const theirs: Theirs = async (s, from) => {
      const id = s.source_id.split('/')[0]!;
      if (!timelines.has(id)) timelines.set(id, await src.timeline(id, new Date(from).toISOString(), CHECK_DAYS));
      const rotations = new Set(s.layers.map((l) => l.source));
      return timelines
        .get(id)!
        .filter((p) => rotations.has(p.rotationId) && p.recipient.type === 'user')
        .map((p) => ({ start: Date.parse(p.startDate), end: Date.parse(p.endDate), userId: p.recipient.id ?? '', label: p.recipient.name ?? p.recipient.id ?? '?' }));
    };
    return { plan: planOpsgenie(await readOpsgenie(src), ctx), theirs };
  }
  const src = pagerDutySource({ token: r.key, baseUrl: r.apiUrl, ...http });
  // PagerDuty's final schedule (every layer and override rendered) over the range.
  const theirs: Theirs = async (s, from, to) => {
    const entries = (await src.schedule(s.source_id, new Date(from).toISOString(), new Date(to).toISOString())).final_schedule?.rendered_schedule_entries ?? [];
    return entries.filter((e) => e.user).map((e) => ({ start: Date.parse(e.start), end: Date.parse(e.end), userId: e.user!.id, label: e.user!.summary ?? e.user!.id }));
  };
  return { plan: planPagerDuty(await readPagerDuty(src, ctx.now), ctx), theirs };
}

export function createImportService(d: ImportServiceDeps): ImportService {
  return {
    async run(r) {
      const key = r.key.trim();
      if (!key) return { ok: false, code: 'no_key', message: 'no key: the source cannot be read without its API key' };
      // The source's words are shown as they came, but a source that echoes the key back never gets it shown.
      const sourceFailed = (e: SourceError, applied: boolean): ImportOutcome => ({ ok: false, code: 'source_failed', message: e.message.split(key).join('…'), status: e.status, applied });
      const now = d.clock();
      const ctx: PlanContext = { account: r.account, numberForms: d.numberForms, now, applianceUrl: r.applianceUrl };
      let read: { plan: ImportPlan; theirs: Theirs };
      try {
        read = await readSource({ ...r, key }, ctx, d.fetch);
      } catch (e) {
        if (e instanceof SourceError) return sourceFailed(e, false);
        throw e;
      }
      let plan: ImportPlan;
      try {
        plan = await applyPlan(read.plan, { store: d.store, clock: d.clock, servicesOn: d.servicesOn }, r.apply);
      } catch (e) {
        if (e instanceof ImportRefused) return { ok: false, code: 'import_refused', message: e.message };
        throw e;
      }
      // The panel shows the last applied plan (docs/panel.md "Import"); recorded once it committed.
      if (r.apply) await d.store.transaction((tx) => tx.importRuns.recordApplied(r.account, plan.source, JSON.stringify(plan), d.clock()));
      if (!r.check) return { ok: true, plan, check: null };
      const from = r.from ?? now;
      let schedules: ImportCheck['schedules'];
      try {
        schedules = await checkImport(plan, from, { store: d.store, clock: d.clock, schedules: d.schedules, theirs: read.theirs });
      } catch (e) {
        if (e instanceof SourceError) return sourceFailed(e, r.apply);
        throw e;
      }
      const check: ImportCheck = { source: plan.source, account: plan.account, from: new Date(from).toISOString(), to: new Date(from + CHECK_DAYS * 86_400_000).toISOString(), schedules };
      // The panel shows the last check too, agreeing or not (docs/panel.md "Import").
      await d.store.transaction((tx) => tx.importRuns.recordCheck(plan.account, plan.source, JSON.stringify(check), d.clock()));
      return { ok: true, plan, check };
    },
  };
}

/** Differences in a check, a schedule not compared counting as one (the CLI's exit 1, the panel's summary). */
export function disagreementsOf(check: ImportCheck): number {
  return check.schedules.reduce((k, s) => k + s.disagreements.length + (s.why ? 1 : 0), 0);
}
