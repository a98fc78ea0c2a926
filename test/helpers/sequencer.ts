import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the slowest files took in a full run on the 2-core machine (the file's
 * longest project, from the run's per-file lines; 2026-12-02). Only their order matters: see
 * LongestFirst.
 */
const SECONDS: Record<string, number> = {
  // One file of both widths until 2026-12-03 (165 s here; 100 s in that day's run): half each.
  'test/e2e/panel-tasks-wide.test.ts': 83,
  'test/e2e/panel-tasks-narrow.test.ts': 83,
  'test/e2e/voice-desk.test.ts': 134,
  'test/integration/escalation.test.ts': 111,
  'test/integration/store-ha.pg.test.ts': 107,
  'test/integration/telephony.test.ts': 100,
  'test/integration/clean-stop.test.ts': 96,
  'test/integration/amd.test.ts': 94,
  'test/integration/trunks.test.ts': 79,
  'test/e2e/panel.test.ts': 71,
  'test/integration/schedule-cli.test.ts': 52,
  'test/e2e/voice-desk-session-timer.test.ts': 52,
  'test/integration/package-deb.test.ts': 45,
  'test/e2e/telephony-tls-srtp.test.ts': 45,
  'test/integration/http-edges.test.ts': 34,
  'test/integration/heartbeat-call.test.ts': 34,
  'test/integration/heartbeats.test.ts': 32,
  'test/integration/alert-restart.test.ts': 32,
  'test/e2e/telephony-pbx.test.ts': 29,
  'test/integration/panel-cli.test.ts': 27,
  'test/integration/callbacks.test.ts': 26,
  'test/integration/failover.pg.test.ts': 26,
  'src/http/panel/panel-pages.test.ts': 26,
  'src/http/panel/panel-alerts.test.ts': 26,
  'test/integration/alerts.test.ts': 26,
  'src/calls/dialer.test.ts': 25,
  'test/integration/handoff-call.test.ts': 23,
  'test/integration/compat-intake.test.ts': 22,
  'test/integration/api-call.test.ts': 22,
  'src/http/panel/panel-overview.test.ts': 22,
  'test/integration/doctor.test.ts': 22,
  'src/maintenance/maintenance.test.ts': 22,
  'src/http/panel/panel-schedules.test.ts': 20,
  'src/sip/telephone.test.ts': 19,
  'test/e2e/panel-oncall.test.ts': 19,
  'test/integration/people-cli.test.ts': 18,
  'test/integration/self-test.test.ts': 18,
  'src/http/panel/panel-schedule-edit.test.ts': 18,
  'test/integration/maintenance.test.ts': 18,
  'test/integration/policy-cli.test.ts': 18,
  'test/integration/cli.test.ts': 17,
  'src/calls/telephony-status.test.ts': 16,
  'test/integration/people-phones.test.ts': 15,
};

/**
 * vitest's own order, with each project's slowest files first. Without a results cache (a
 * fresh clone, CI) vitest starts larger files first, and a short file with one long test
 * (voice-desk-session-timer: 49 s) started last in its group and ran alone for most of its
 * 49 s while the other workers sat idle. With the longest started first, a group of
 * several workers ends when its work is done (longest-processing-time first: within 4/3 of
 * the best). Files run in the same projects and groups as before; only the order within a
 * project changes.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => SECONDS[relative(root, f.moduleId)] ?? -1;
    // vitest keeps each project's files together, in group order: reorder inside each run of them.
    const out: TestSpecification[] = [];
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j < sorted.length && sorted[j]!.project === sorted[i]!.project) j++;
      // Array.prototype.sort is stable: files with no figure keep vitest's order, after the others.
      out.push(...sorted.slice(i, j).sort((a, b) => seconds(b) - seconds(a)));
      i = j;
    }
    return out;
  }
}
