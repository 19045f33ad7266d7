import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Threads sharing their module cache across files (no per-file isolation) halve the suite's CPU
    // time: the parsers and analysis are imported once per worker, not once per file. No test mocks
    // modules or globals, so files cannot leak into each other that way; keep it so.
    pool: 'threads',
    isolate: false,
    // Three workers on two cores: most files wait on Chromium, child processes or sockets, so with
    // two workers the run kept about one core busy on average; a third fills the other (a clean
    // clone's vitest run: 4 min 15 s with two, 3 min 12 s with three). Tests that measure a process
    // do it in a child of their own (VmHWM, test/helpers/peak-rss.ts) or as a wide CPU-time ratio.
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
