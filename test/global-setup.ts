// Once per test run, before any test file: the renderer build the end-to-end tests serve (built here
// so parallel test files never build it at the same time), and one Chromium that every end-to-end
// file connects to instead of launching its own.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { chromium, type BrowserServer } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.HNSIGHT_CHROMIUM || '/usr/bin/chromium';
let browser: BrowserServer | undefined;

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumWsEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A run filtered to other files (`vitest run test/unit/x`) needs no browser.
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run');
  const e2e = filters.length === 0 || filters.some((f) => f.includes('e2e'));
  // In its own process: under the test runner NODE_ENV is 'test', and Vite's React plugin would
  // compile the development JSX runtime into what must be the production build users get.
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  execFileSync(process.execPath, [path.join(repo, 'tools/build-renderer.mjs')], { cwd: repo, env: { ...process.env, NODE_ENV: 'production' }, stdio: 'inherit' });
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
