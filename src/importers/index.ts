/**
 * The way in (docs/integrations.md "Moving from Opsgenie or PagerDuty"): read a team from
 * Opsgenie's or PagerDuty's REST API (opsgenie-source.ts, pagerduty-source.ts over
 * source-http.ts), translate it into a plan (opsgenie-plan.ts, pagerduty-plan.ts, plan.ts).
 * apply.ts writes a plan (all or nothing, idempotent by the source ids it remembers).
 * run.ts is one import as the CLI and the panel both run it (read, plan, apply, check, record).
 */
export { SourceError, rateLimitWaitMs } from './source-http';
export { OPSGENIE_EU, OPSGENIE_US, opsgenieSource, readOpsgenie, type OpsgenieExport } from './opsgenie-source';
export { PAGERDUTY_API, pagerDutySource, readPagerDuty, type PagerDutyExport } from './pagerduty-source';
export { planOpsgenie } from './opsgenie-plan';
export { planPagerDuty } from './pagerduty-plan';
export { againstExisting, type Action, type ImportPlan, type PlanContext, type PlannedObject } from './plan';
export { applyPlan, ImportRefused, type ApplyDeps, type ImportWriters } from './apply';
export { CHECK_DAYS, checkImport, compareTimelines, type CheckDeps, type Disagreement, type ImportCheck, type ScheduleCheck } from './check';
export {
  createImportService,
  disagreementsOf,
  IMPORT_SOURCES,
  sourceApiUrl,
  type ImportOutcome,
  type ImportRequest,
  type ImportService,
  type ImportSource,
  type OpsgenieRegion,
} from './run';
