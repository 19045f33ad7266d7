// Builds worker bundles and their manifests. As a command (what build-in-child.mjs runs, so esbuild's
// work and memory stay out of the process that asked):
//   node build-bundle.mjs [--cache <dir>] [--lock <file>] [--force] [<entry.mjs>...]
// builds each entry whose bundle is missing or stale (--force: each; no entry named: the product's five
// workers) and
// prints one JSON line per entry: {"entry", "result": "fresh" | "built" | "changed" | "failed",
// "message"?}. "changed": an input was written during the build, so no manifest (the next request builds
// again); not a failure.
//
// Like tools/build-electron.mjs's worker bundles (ESM), with three differences:
// - the target is the Node that builds it (recorded: another Node does not use it), as tsx's is;
// - packages stay external: the bundle lives in .cache/workers/ inside the checkout, so Node finds them
//   in node_modules as it does for tsx, and the manifest lists only our own files;
// - `import.meta.url` becomes the URL of the source file it is written in, so what a module finds beside
//   itself (a nested worker's entry, the demo folder) is what it finds under tsx. The Electron build
//   does not need this because every worker bundle sits beside the others in dist/electron/ under its
//   entry's name; .cache/workers/ holds bundles named by content, not entries.
//
// Two processes building at once never leave a torn file: each writes under a name of its own
// (`.<pid>.tmp`) and renames it into place; the bundle's name is its content's hash, so a manifest
// always names the bundle it was written with. At worst the later manifest records a bundle file the
// other process replaced: then it reads as stale and the next request builds again.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { isBuiltin } from 'node:module';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FORMAT, PRODUCT_WORKER_ENTRIES, bundlePaths, freshBundle } from './fresh-bundle.mjs';

/** An input was written while esbuild read it: the bundle may hold either version, so it is not recorded. */
export class ChangedDuringBuild extends Error {}

/** @type {esbuild.Plugin} */
const sourceMetaUrl = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const ext = path.extname(args.path).replace(/^\.[cm]?/, '');
      return { contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: /** @type {esbuild.Loader} */ (ext) };
    });
  },
};

/** @param {string} entry @param {string} [cacheDir] */
export async function buildWorkerBundle(entry, cacheDir) {
  const p = bundlePaths(entry, cacheDir);
  const root = path.dirname(p.main);
  // An input written after this moment may or may not be in the bundle: then no manifest is written
  // (the next process builds again). The margin covers the file system's coarse clock.
  const startedMs = Date.now() - 20;
  const r = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [p.main],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    metafile: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    plugins: [sourceMetaUrl],
  });
  const text = r.outputFiles[0].text;
  // import.meta.dirname / filename would still name the bundle's folder: not run bundled.
  if (text.includes('import.meta')) throw new Error('a bundled module uses import.meta other than its url');
  const inputs = Object.keys(r.metafile.inputs).map((f) => path.resolve(root, f));
  // esbuild reads the tsconfig files above the entry; a change to them is a change to the bundle.
  for (let d = root; ; d = path.dirname(d)) {
    for (const t of ['tsconfig.json', 'tsconfig.base.json']) if (existsSync(path.join(d, t))) inputs.push(path.join(d, t));
    if (existsSync(path.join(d, 'package.json')) || path.dirname(d) === d) break;
  }
  const statMs = Date.now() + 20;
  const stats = inputs.map((f) => {
    const s = statSync(f);
    // A time later than now is a clock's skew (a copy from another machine), not a write during the
    // build: such a file is recorded as it is, or it would be built again at every request.
    if (s.mtimeMs >= startedMs && s.mtimeMs <= statMs) throw new ChangedDuringBuild(`${f} changed during the build`);
    return { path: f, size: s.size, mtimeMs: s.mtimeMs };
  });
  // Packages stay imports in the bundle, found the way Node finds them from where the bundle lies: a
  // cache folder outside the checkout (HNSIGHT_WORKER_CACHE) would build a bundle that cannot start.
  const lost = externalPackages(r.metafile).filter((pkg) => !packageVisibleFrom(p.cacheDir, pkg));
  if (lost.length) throw new Error(`${lost.join(', ')} cannot be found from ${p.cacheDir} (a worker bundle finds its packages in a node_modules folder above it)`);
  mkdirSync(p.cacheDir, { recursive: true });
  removeLeftovers(p.cacheDir);
  const bundleName = `${p.name}.${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`;
  const bundle = path.join(p.cacheDir, bundleName);
  const tmp = `.${process.pid}.tmp`;
  // The same content already there (another process built it): kept as it is, so the manifest that
  // process wrote (its size and mtime) stays true.
  if (!sameText(bundle, text)) {
    writeFileSync(bundle + tmp, text);
    renameSync(bundle + tmp, bundle);
  }
  const b = statSync(bundle);
  const previous = previousBundle(p.manifest);
  writeFileSync(p.manifest + tmp, JSON.stringify({ format: BUNDLE_FORMAT, node: process.versions.node, main: p.main, bundle: bundleName, bundleSize: b.size, bundleMtimeMs: b.mtimeMs, inputs: stats }));
  renameSync(p.manifest + tmp, p.manifest);
  // A worker that already imported the old bundle keeps running: its code is in memory.
  if (previous && previous !== bundleName) rmSync(path.join(p.cacheDir, previous), { force: true });
}

/**
 * The packages the bundle imports (external, not Node's own modules), by name.
 * @param {esbuild.Metafile} meta
 */
function externalPackages(meta) {
  const names = new Set();
  for (const input of Object.values(meta.inputs)) {
    for (const i of input.imports) {
      if (!i.external || i.path.startsWith('node:') || isBuiltin(i.path) || i.path.startsWith('.') || path.isAbsolute(i.path)) continue;
      const parts = i.path.split('/');
      names.add(i.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
    }
  }
  return [...names];
}

/** Whether Node's lookup of a bare specifier (node_modules/<name> in each folder up to the root) finds the package from dir. */
function packageVisibleFrom(/** @type {string} */ dir, /** @type {string} */ name) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, 'node_modules', name))) return true;
    if (path.dirname(d) === d) return false;
  }
}

/** @param {string} file @param {string} text */
function sameText(file, text) {
  try {
    return readFileSync(file, 'utf8') === text;
  } catch {
    return false;
  }
}

/** Temp files of a build that was killed before its rename (older than ten minutes: not one in progress). */
function removeLeftovers(/** @type {string} */ dir) {
  const old = Date.now() - 10 * 60_000;
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.tmp')) continue;
    try {
      if (statSync(path.join(dir, f)).mtimeMs < old) rmSync(path.join(dir, f), { force: true });
    } catch {
      // Renamed or removed by another process meanwhile.
    }
  }
}

/**
 * Builds each entry whose bundle is missing or stale (force: each), one after the other.
 * @param {string[]} entries
 * @param {string} [cacheDir]
 * @param {{ force?: boolean }} [opts]
 * @returns {Promise<{ entry: string, result: 'fresh' | 'built' | 'changed' | 'failed', message?: string }[]>}
 */
export async function buildStaleWorkerBundles(entries, cacheDir, { force = false } = {}) {
  const out = [];
  for (const entry of entries) {
    if (!force && freshBundle(entry, cacheDir)) {
      out.push({ entry, result: /** @type {const} */ ('fresh') });
      continue;
    }
    try {
      await buildWorkerBundle(entry, cacheDir);
      out.push({ entry, result: /** @type {const} */ ('built') });
    } catch (e) {
      const message = firstLine(e);
      out.push({ entry, result: e instanceof ChangedDuringBuild ? /** @type {const} */ ('changed') : /** @type {const} */ ('failed'), message });
    }
  }
  return out;
}

/** esbuild's own message says "Build failed with 1 error:" first; the error itself is the useful line. */
function firstLine(/** @type {unknown} */ e) {
  const first = /** @type {{ errors?: { text?: string, location?: { file?: string, line?: number } | null }[] }} */ (e).errors?.[0];
  if (first?.text) return first.location?.file ? `${first.location.file}:${first.location.line}: ${first.text}` : first.text;
  return (e instanceof Error ? e.message : String(e)).split('\n')[0];
}

/** @param {string} manifest */
function previousBundle(manifest) {
  try {
    const m = JSON.parse(readFileSync(manifest, 'utf8'));
    return typeof m.bundle === 'string' && path.basename(m.bundle) === m.bundle ? m.bundle : undefined;
  } catch {
    return undefined;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  let cacheDir;
  const at = args.indexOf('--cache');
  if (at >= 0) [, cacheDir] = args.splice(at, 2);
  // --lock <file>: the lock a CLI run took before starting this build (cli-bundle.mjs), removed when it ends.
  let lock;
  const atLock = args.indexOf('--lock');
  if (atLock >= 0) [, lock] = args.splice(atLock, 2);
  const force = args.includes('--force');
  // The process that asked may be gone (a CLI run that ended first): the build goes on, its report unread.
  process.stdout.on('error', () => undefined);
  const entries = args.filter((a) => a !== '--force').map((a) => path.resolve(a));
  try {
    const results = await buildStaleWorkerBundles(entries.length ? entries : PRODUCT_WORKER_ENTRIES, cacheDir, { force });
    for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    if (lock) rmSync(lock, { force: true });
  }
}
