// Runs build-bundle.mjs in a child process and returns at once: the caller's thread goes on (a server
// answering requests, a CLI doing its work, a launcher starting the server) while esbuild works, and
// esbuild's memory leaves with the child. Shared by ensure-bundle.ts (the app's main thread),
// tools/start.mjs and test/global-setup.ts (both build ahead, before anything starts a worker).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PRODUCT_BUNDLE_ENTRIES } from './fresh-bundle.mjs';

/** A build that hangs (a stuck file system) is stopped: its workers stay on tsx. */
const BUILD_TIMEOUT_MS = 120_000;

/**
 * @typedef {{ entry: string, result: 'fresh' | 'built' | 'changed' | 'failed', message?: string }} BuildResult
 * @typedef {{ pid: number | undefined, entries: string[], done: Promise<BuildResult[]> }} ChildBuild
 */

/**
 * @param {string[]} [entries] entries (`<name>.mjs`, absolute); by default the product's five workers and the CLI
 * @param {{ cacheDir?: string, detached?: boolean, force?: boolean }} [opts] detached: the caller's
 *   process may exit before the build ends (a CLI run), and the build then goes on by itself; force:
 *   build even the bundles that are current
 * @returns {ChildBuild}
 */
export function buildInChild(entries = PRODUCT_BUNDLE_ENTRIES, { cacheDir, detached = false, force = false } = {}) {
  const script = fileURLToPath(new URL('./build-bundle.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, ...(cacheDir ? ['--cache', cacheDir] : []), ...(force ? ['--force'] : []), ...entries], { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
  timer.unref();
  const done = new Promise((resolve) => {
    /** @param {string} why */
    const allFailed = (why) => entries.map((entry) => ({ entry, result: /** @type {const} */ ('failed'), message: why }));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve(allFailed(e.message));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      /** @type {BuildResult[]} */
      const results = [];
      for (const line of out.split('\n')) {
        try {
          if (line.trim()) results.push(JSON.parse(line));
        } catch {
          // Not a report line.
        }
      }
      // An entry with no line: the child died before reaching it.
      const why = err.trim().split('\n')[0] || (signal ? `stopped by ${signal}` : `exit ${code}`);
      for (const entry of entries) if (!results.some((r) => r.entry === entry)) results.push({ entry, result: 'failed', message: why });
      resolve(results);
    });
  });
  if (detached) {
    child.unref();
    /** @type {import('node:net').Socket} */ (child.stdout).unref();
    /** @type {import('node:net').Socket} */ (child.stderr).unref();
  }
  return { pid: child.pid, entries, done: /** @type {Promise<BuildResult[]>} */ (done) };
}
