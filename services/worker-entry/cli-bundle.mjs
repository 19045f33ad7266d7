// The command line's side of bundles (bin/hnsight.mjs): run the CLI's bundle when it is current, else
// start a build that outlives this run and go on through tsx at once. Plain JavaScript: it runs before
// anything compiles TypeScript.
//
// Why the CLI too: under tsx, `hnsight serve` — browser mode's server, the process `npm start` runs —
// holds ≈ 45 MiB more for its whole life (tsx's loader thread and the compiled sources; measured in
// docs/performance.md), and every command pays tsx's compile at start.
//
// A run never waits for a build: its answer matters now, the bundle only to the next run. Many runs
// at once with a stale bundle (a script, a test file running the command thirty times) start one build
// between them: a lock file beside the manifest, taken with O_EXCL and removed by the build when it
// ends; a lock older than STALE_LOCK_MS is taken to be a build that died, and is taken over (the
// detached build has no timeout of its own: a hung one is outlived, not killed).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CLI_ENTRY, bundlePaths, freshBundle } from './fresh-bundle.mjs';

/** Longer than any build takes (esbuild: seconds); a lock older than this is a build that died. */
export const STALE_LOCK_MS = 150_000;

/** HNSIGHT_CLI_BUNDLE=0 (or HNSIGHT_WORKER_BUNDLES=0, which turns every bundle off): the CLI runs through tsx. */
function turnedOff(env = process.env) {
  return env.HNSIGHT_CLI_BUNDLE === '0' || env.HNSIGHT_WORKER_BUNDLES === '0';
}

/**
 * The file URL of the CLI's bundle when it is current, else undefined.
 * @param {{ cacheDir?: string, entry?: string }} [opts] entry: another `<name>.mjs` with its `<name>-main.ts` (tests)
 */
export function cliBundle({ cacheDir, entry = CLI_ENTRY } = {}) {
  return turnedOff() ? undefined : freshBundle(entry, cacheDir);
}

/**
 * Starts the CLI's bundle build in a detached child when none is running, and returns at once.
 * 'started': this call started it; 'running': another run's build holds the lock; 'skipped': turned
 * off, no TypeScript main (a packaged copy), or the cache folder cannot be written.
 * @param {{ cacheDir?: string, entry?: string, spawnBuild?: typeof spawn }} [opts]
 * @returns {'started' | 'running' | 'skipped'}
 */
export function requestCliBundle({ cacheDir, entry = CLI_ENTRY, spawnBuild = spawn } = {}) {
  if (turnedOff()) return 'skipped';
  const p = bundlePaths(entry, cacheDir);
  if (!existsSync(p.main)) return 'skipped';
  const lock = path.join(p.cacheDir, `${p.name}.building`);
  try {
    mkdirSync(p.cacheDir, { recursive: true });
  } catch {
    return 'skipped';
  }
  if (!takeLock(lock)) return existsSync(lock) ? 'running' : 'skipped';
  const script = fileURLToPath(new URL('./build-bundle.mjs', import.meta.url));
  try {
    const child = spawnBuild(process.execPath, [script, '--cache', p.cacheDir, '--lock', lock, entry], { detached: true, stdio: 'ignore', windowsHide: true });
    child.on('error', () => rmSync(lock, { force: true }));
    child.unref();
  } catch {
    rmSync(lock, { force: true });
    return 'skipped';
  }
  return 'started';
}

/** @param {string} lock */
function takeLock(lock) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      return true;
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') return false;
      try {
        if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
        rmSync(lock, { force: true });
      } catch {
        // Removed by its build meanwhile: try again.
      }
    }
  }
  return false;
}

/**
 * The CLI's module: its bundle when current, else (after asking for a build) its TypeScript main
 * through tsx. tsx is not even loaded when the bundle runs.
 * @param {{ cacheDir?: string, entry?: string }} [opts] entry: another `<name>.mjs` with its `<name>-main.ts` (tests)
 * @returns {Promise<Record<string, unknown>>}
 */
export async function importCli({ cacheDir, entry = CLI_ENTRY } = {}) {
  const bundle = cliBundle({ cacheDir, entry });
  if (bundle) {
    try {
      return await import(bundle);
    } catch (e) {
      // Another process rebuilt it and removed this one between the check and the import (nothing of
      // it ran): tsx. Any other error is the CLI's own and is thrown as it would be under tsx.
      if (existsSync(fileURLToPath(bundle))) throw e;
    }
  }
  requestCliBundle({ cacheDir, entry });
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(bundlePaths(entry, cacheDir).main).href);
}
