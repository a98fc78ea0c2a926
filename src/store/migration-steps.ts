import { initialStep } from './schema/01-accounts-and-queue';
import { telephonyStep } from './schema/02-telephony';
import { webPanelStep } from './schema/03-web-panel';
import { claimedFromStep } from './schema/04-claimed-from';
import { alertsStep } from './schema/05-alerts';
import { boundedHistoryStep } from './schema/06-bounded-history';
import { escalationStep } from './schema/07-escalation';
import { callbacksStep } from './schema/08-callbacks';
import { panelLanguageStep } from './schema/09-panel-language';
import { noLeaderStep } from './schema/10-no-leader';
import { usageShardsStep } from './schema/11-usage-shards';
import { heartbeatsStep } from './schema/12-heartbeats';
import { maintenanceWindowsStep } from './schema/13-maintenance-windows';
import { schedulesStep } from './schema/14-schedules';
import { callEventTrunksStep } from './schema/15-call-event-trunks';
import { selfTestsStep } from './schema/16-self-tests';
import { voiceDeskStep } from './schema/17-voice-desk';
import { alertsByKeyStep } from './schema/18-alerts-by-key';
import { keyedAlertsIndexStep } from './schema/19-keyed-alerts-index';
import { unroutableStep } from './schema/20-unroutable-and-fallback';
import { peopleStep } from './schema/21-people';
import { answeredByStep } from './schema/22-answered-by';
import { verificationCallsStep } from './schema/23-verification-calls';
import { secondPathNoticesStep } from './schema/24-second-path-notices';
import { importSourcesStep } from './schema/25-import-sources';
import { handoffCallsStep } from './schema/26-handoff-calls';
import { textsInsteadOfCallsStep } from './schema/27-texts-instead-of-calls';
import { importRunsStep } from './schema/28-import-runs';
import type { MigrationStep } from './schema/migration-step';

export type { MigrationStep } from './schema/migration-step';

/**
 * The schema's history, one step per file in ./schema, applied in this order on both stores
 * (migrations.ts). Append-only: a released step is never edited, a change is a new step.
 */
export const MIGRATIONS: readonly MigrationStep[] = [
  initialStep,
  telephonyStep,
  webPanelStep,
  claimedFromStep,
  alertsStep,
  boundedHistoryStep,
  escalationStep,
  callbacksStep,
  panelLanguageStep,
  noLeaderStep,
  usageShardsStep,
  heartbeatsStep,
  maintenanceWindowsStep,
  schedulesStep,
  callEventTrunksStep,
  selfTestsStep,
  voiceDeskStep,
  alertsByKeyStep,
  keyedAlertsIndexStep,
  unroutableStep,
  peopleStep,
  answeredByStep,
  verificationCallsStep,
  secondPathNoticesStep,
  importSourcesStep,
  handoffCallsStep,
  textsInsteadOfCallsStep,
  importRunsStep,
];

/** The schema version this program writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
