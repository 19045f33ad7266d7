// What every worker entry (services/bundle/parse-worker.mjs, services/backend/*-worker.mjs) runs: its
// pre-bundled main when one is up to date (built in a child process, ensure-bundle.ts), else its
// TypeScript main through tsx, as before. tsx's start-up in a thread costs 0.7–1.05 CPU-s, the bundle
// ≈ 0.4 (docs/testing.md "Where the time goes"); tsx is not even loaded when the bundle runs.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshBundle, bundlePaths } from './fresh-bundle.mjs';

/**
 * @param {string} entryUrl the worker entry's import.meta.url
 * @param {string} [cacheDir] where its bundle is (tests); .cache/workers by default
 */
export async function runWorkerMain(entryUrl, cacheDir) {
  // Tells ensure-bundle.ts that this thread is one of our workers: a worker never builds (a nested
  // worker it starts still chooses between a bundle and tsx by itself). Not isMainThread: the main
  // thread of the code that starts workers may itself be a thread (vitest runs test files in threads).
  globalThis.__hnsightWorkerThread = true;
  const bundle = freshBundle(entryUrl, cacheDir);
  if (bundle) {
    try {
      await import(bundle);
      return;
    } catch (e) {
      // Another process rebuilt it and removed this one between the check and the import (nothing of
      // it ran): tsx. Any other error is the worker's own and is thrown as it would be under tsx.
      if (existsSync(fileURLToPath(bundle))) throw e;
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = bundlePaths(entryUrl, cacheDir);
  await import(pathToFileURL(main).href);
}
