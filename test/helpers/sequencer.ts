import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the slowest files took in a full run on the 2-core machine (the file's
 * longest project; `--reporter=json`). Only their order matters: see LongestFirst.
 */
const SECONDS: Record<string, number> = {
  'test/integration/escalation.test.ts': 118,
  'test/integration/telephony.test.ts': 79,
  'test/integration/clean-stop.test.ts': 78,
  'test/integration/trunks.test.ts': 77,
  'test/e2e/panel.test.ts': 57,
  'test/e2e/voice-desk-session-timer.test.ts': 49,
  'test/integration/schedule-cli.test.ts': 35,
  'test/integration/alert-restart.test.ts': 29,
  'src/maintenance/maintenance.test.ts': 27,
  'src/http/panel/panel-alerts.test.ts': 27,
  'test/integration/heartbeats.test.ts': 27,
  'test/integration/http-edges.test.ts': 25,
  'src/http/panel/panel-pages.test.ts': 24,
  'src/http/panel/panel-passwords.test.ts': 24,
  'src/http/panel/panel-overview.test.ts': 21,
  'test/integration/callbacks.test.ts': 20,
  'test/integration/doctor.test.ts': 20,
  'test/integration/compat-intake.test.ts': 19,
  'src/http/compat-routes.test.ts': 18,
  'test/integration/heartbeat-call.test.ts': 18,
  'test/integration/maintenance.test.ts': 18,
  'src/calls/telephony-status.test.ts': 17,
  'test/integration/package-deb.test.ts': 17,
  'test/integration/api-call.test.ts': 16,
  'test/integration/alerts.test.ts': 16,
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
