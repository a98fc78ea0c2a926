import { defineConfig } from 'vitest/config';

// Tests run under Bun (`bunx --bun vitest run`) so they use the production engine.
// The forks pool fails under Bun (child.channel?.unref), threads works: see stack-findings.md.
export default defineConfig({
  test: {
    pool: 'threads',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
