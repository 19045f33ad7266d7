// Builds a worker's pre-bundled main on the main thread (never in a worker), when it is missing or
// stale, at most once per entry per process: one file that a worker imports without tsx
// (run-worker-main.mjs). Any failure (a read-only folder, esbuild missing, a bundle that would not run
// where it is) leaves the worker on tsx, as before, with one line on the log sink if one is set.
// The packaged app does not build: its workers are dist/electron/*.mjs, with no *-main.ts beside them.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundlePaths, freshBundle } from './fresh-bundle.mjs';

const attempted = new Set<string>();
let logSink: ((line: string) => void) | undefined;

/** Where a failed build says so (the backend's log); unset, failures are silent. */
export function setWorkerBundleLog(log: ((line: string) => void) | undefined): void {
  logSink = log;
}

/**
 * Makes the entry's bundle current if it can, and returns the entry unchanged (the worker entry itself
 * chooses between the bundle and tsx), so a call site reads `new Worker(workerEntry(url))`.
 */
export function workerEntry<T extends string | URL>(entry: T, opts: { cacheDir?: string } = {}): T {
  ensureWorkerBundle(entry, opts);
  return entry;
}

export type EnsureResult = 'fresh' | 'built' | 'skipped' | 'failed';

/** 'skipped': in one of our workers, no TypeScript main beside the entry, or built (or failed) once already. */
export function ensureWorkerBundle(entry: string | URL, opts: { cacheDir?: string } = {}): EnsureResult {
  if ((globalThis as { __hnsightWorkerThread?: boolean }).__hnsightWorkerThread || process.env.HNSIGHT_WORKER_BUNDLES === '0') return 'skipped';
  const p = bundlePaths(entry, opts.cacheDir);
  const key = `${p.main}\0${p.manifest}`;
  if (attempted.has(key) || !existsSync(p.main)) return 'skipped';
  if (freshBundle(entry, opts.cacheDir)) return 'fresh';
  attempted.add(key);
  const script = fileURLToPath(new URL('./build-bundle.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [script, typeof entry === 'string' && !entry.startsWith('file:') ? entry : fileURLToPath(entry), p.cacheDir], { encoding: 'utf8', timeout: 60_000, windowsHide: true });
  if (r.status === 0) return 'built';
  const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n')[0];
  logSink?.(`hnsight: the ${p.name} worker starts through tsx (its bundle could not be built: ${why})`);
  return 'failed';
}
