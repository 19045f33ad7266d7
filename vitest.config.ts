import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.ts';

export default defineConfig({
  // Vitest's cache (the files' last durations, which order the next run: test/sequencer.ts) in this
  // checkout, not in node_modules/.vite: a node_modules shared by several checkouts would order one
  // checkout's run by another's timings, and removing .cache/ gives a clean clone's run.
  cacheDir: '.cache/vite',
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
    // Longest files first, on a fresh clone too (test/sequencer.ts, test/file-seconds.json).
    sequence: { sequencer: LongestFirstSequencer },
    globalSetup: ['test/global-setup.ts'],
    // HNSIGHT_FILE_CPU=<file>: each file's CPU written there (test/support/file-cpu.ts, a measurement aid).
    setupFiles: process.env.HNSIGHT_FILE_CPU ? ['test/support/file-cpu.ts'] : [],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
