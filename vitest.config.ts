import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer.ts';

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
    // Two workers on two cores: vitest's default leaves one core to itself (cores − 1), but most
    // files wait on Chromium, child processes or sockets, so a second worker nearly halves the run.
    maxWorkers: 2,
    // Long files first, on a fresh clone too (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
