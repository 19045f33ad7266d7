// Once per test run, before any test file: the renderer build the end-to-end tests serve (built here
// so parallel test files never build it at the same time), the worker threads' bundles and those of the
// tests' child processes (beside it, in a child process; services/worker-entry/), and one Chromium
// that every end-to-end file connects to instead of launching its own.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { chromium, type BrowserServer } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInChild } from '../services/worker-entry/build-in-child.mjs';
import { PRODUCT_WORKER_ENTRIES } from '../services/worker-entry/fresh-bundle.mjs';
import { TEST_CHILD_ENTRIES } from './support/child-entries.ts';

export const CHROMIUM = process.env.HNSIGHT_CHROMIUM || '/usr/bin/chromium';
let browser: BrowserServer | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
    /** Whether the end-to-end tests save their screenshots (test/e2e/helpers.ts shot()). */
    screenshots: boolean;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A run filtered to other files (`vitest run test/unit/x`) needs no browser.
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run');
  const e2e = filters.length === 0 || filters.some((f) => f.includes('e2e'));
  // The screenshots in test-results/ are for a person to look at, and assert nothing: saved in a run of
  // chosen files (`vitest run test/e2e/x`, `npm test -- <path>`), not in the whole suite, where nobody
  // looks at them and the 75 of them cost about 20 CPU-s (docs/testing.md). HNSIGHT_SHOTS=1 saves them
  // in any run, HNSIGHT_SHOTS=0 in none.
  project.provide('screenshots', process.env.HNSIGHT_SHOTS ? process.env.HNSIGHT_SHOTS !== '0' : filters.length > 0);
  // The analysis clock (services/analysis-budget.ts) is 30 s in the app; on a busy test machine a
  // comparison of two nodes stopped there with fewer sources than the tests assert. The test threads
  // and the servers they start inherit this (set before they exist); a test of the bound sets its own.
  process.env.HNSIGHT_ANALYSIS_SECONDS ??= '300';
  // In its own process: under the test runner NODE_ENV is 'test', and Vite's React plugin would
  // compile the development JSX runtime into what must be the production build users get.
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // The workers' bundles, ahead: built on demand, the first workers of each test thread after an edit
  // would run through tsx while two threads each built the same bundles. The stale ones only (none
  // after a run with no edit: ≈ 2 CPU-s for all five when every one is stale). A failure leaves the
  // workers on tsx and says why in one line each.
  // The test's own child processes (the fuzz child, the loader child, the notes writers) the same way:
  // test/support/child-entries.ts.
  const workerBundles = process.env.HNSIGHT_WORKER_BUNDLES === '0' ? undefined : buildInChild([...PRODUCT_WORKER_ENTRIES, ...TEST_CHILD_ENTRIES]);
  execFileSync(process.execPath, [path.join(repo, 'tools/build-renderer.mjs')], { cwd: repo, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
  for (const r of (await workerBundles?.done) ?? []) {
    if (r.result === 'failed' || r.result === 'changed') process.stderr.write(`hnsight: ${path.basename(r.entry)} runs through tsx in this run (its bundle: ${r.message ?? r.result})\n`);
  }
  if (e2e && existsSync(CHROMIUM)) {
    browser = await chromium.launchServer({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    project.provide('chromiumWsEndpoint', browser.wsEndpoint());
  } else project.provide('chromiumWsEndpoint', '');
  return async () => {
    await browser?.close();
  };
}
