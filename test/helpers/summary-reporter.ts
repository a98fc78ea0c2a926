import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, which CI
 * reads to count what ran (vitest's own summary is not one it knows). Before it, each
 * project's wall time (its first file's start to its last file's end) and the sum of its
 * files' own times: where the suite's minutes go (docs/development.md "The suite's length").
 */
export default class SummaryReporter implements Reporter {
  private readonly spans = new Map<string, { start: number; end: number; files: number; busy: number }>();

  onTestModuleStart(m: TestModule): void {
    const name = m.project.name;
    const now = Date.now();
    const span = this.spans.get(name) ?? { start: now, end: now, files: 0, busy: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(m: TestModule): void {
    const span = this.spans.get(m.project.name);
    if (!span) return;
    span.end = Date.now();
    span.files++;
    span.busy += m.diagnostic().duration;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failed++; // a file that did not load
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const s = (ms: number) => `${Math.round(ms / 1000)} s`;
    const spans = [...this.spans.entries()].sort((a, b) => a[1].start - b[1].start);
    const first = spans[0]?.[1].start ?? 0;
    for (const [name, span] of spans) {
      process.stdout.write(`Project ${name}: ${span.files} files, from ${s(span.start - first)} to ${s(span.end - first)} (${s(span.end - span.start)}), files' own time ${s(span.busy)}\n`);
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
