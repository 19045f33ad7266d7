// Whether a worker's pre-bundled file may be run: read by the worker entry (before it decides between
// the bundle and tsx) and by the main thread (before it decides to build). Plain JavaScript, so a
// worker can run it before anything compiles TypeScript.
//
// A bundle is used only if every input esbuild read (its metafile) still has the size and mtime it had
// when the bundle was built: a developer who edits a parser never runs an old worker. Stat of ≈ 60
// files is well under a millisecond.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bumped when the build's options change, so bundles built the old way are not used. */
export const BUNDLE_FORMAT = 2;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_CACHE_DIR = path.join(repo, '.cache', 'workers');

/** Every worker entry the app starts (each `<name>.mjs` beside its `<name>-main.ts`), as tools/build-electron.mjs lists them. */
export const PRODUCT_WORKER_ENTRIES = ['services/bundle/parse-worker.mjs', 'services/backend/findings-worker.mjs', 'services/backend/services-worker.mjs', 'services/backend/reach-worker.mjs', 'services/backend/reach-diff-worker.mjs'].map((f) => path.join(repo, f));

/**
 * The command line's own code (bin/hnsight.mjs, its TypeScript in bin/hnsight-main.ts): `hnsight serve`
 * — browser mode's server — and every other command run from a bundle too, checked and built the way
 * the workers' are.
 */
export const CLI_ENTRY = path.join(repo, 'bin', 'hnsight.mjs');

/** What is built ahead where waiting costs nobody (the test run's setup, `npm start`): the workers and the CLI. */
export const PRODUCT_BUNDLE_ENTRIES = [...PRODUCT_WORKER_ENTRIES, CLI_ENTRY];

/**
 * Where bundles are kept: HNSIGHT_WORKER_CACHE when set (tests that need a build to happen), else
 * .cache/workers in the checkout. A bundle finds its packages in node_modules above its folder, so a
 * folder outside the checkout builds nothing (build-bundle.mjs says why). Read at each call, by the
 * main thread and by the worker alike (a worker gets its env from the thread that started it).
 */
export function workerCacheDir() {
  return process.env.HNSIGHT_WORKER_CACHE ? path.resolve(process.env.HNSIGHT_WORKER_CACHE) : DEFAULT_CACHE_DIR;
}

/**
 * Where the worker entry `<dir>/<name>.mjs` keeps its TypeScript main (`<dir>/<name>-main.ts`, the file
 * tsx runs and esbuild bundles) and its manifest (`<cacheDir>/<name>.json`).
 * @param {string | URL} entry
 * @param {string} [cacheDir]
 */
export function bundlePaths(entry, cacheDir = workerCacheDir()) {
  const file = entry instanceof URL || String(entry).startsWith('file:') ? fileURLToPath(entry) : path.resolve(String(entry));
  const name = path.basename(file).replace(/\.m?js$/, '');
  return { name, main: path.join(path.dirname(file), `${name}-main.ts`), manifest: path.join(cacheDir, `${name}.json`), cacheDir };
}

/**
 * The file URL of the bundle to run for this entry, or undefined when there is none, it was built
 * another way, or any input changed since (then the caller falls back to tsx).
 * @param {string | URL} entry
 * @param {string} [cacheDir]
 * @returns {string | undefined}
 */
export function freshBundle(entry, cacheDir) {
  // The way back to tsx alone (and the "before" of a measurement): HNSIGHT_WORKER_BUNDLES=0.
  if (process.env.HNSIGHT_WORKER_BUNDLES === '0') return undefined;
  const { manifest, main } = bundlePaths(entry, cacheDir);
  let m;
  try {
    m = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch {
    return undefined;
  }
  if (!m || m.format !== BUNDLE_FORMAT || m.node !== process.versions.node || m.main !== main || typeof m.bundle !== 'string' || !Array.isArray(m.inputs)) return undefined;
  const bundle = path.join(path.dirname(manifest), m.bundle);
  for (const f of [...m.inputs, { path: bundle, size: m.bundleSize, mtimeMs: m.bundleMtimeMs }]) {
    try {
      const s = statSync(f.path);
      if (s.size !== f.size || s.mtimeMs !== f.mtimeMs) return undefined;
    } catch {
      return undefined;
    }
  }
  return pathToFileURL(bundle).href;
}
