// Builds one worker's bundle and its manifest: `node build-bundle.mjs <entry.mjs> [cacheDir]`. Run as a
// child process by ensure-bundle.ts, so the main thread that needs it waits for it synchronously
// (new Worker() is synchronous) while esbuild's plugins, which only its asynchronous API runs, still
// work. Exit code 1 and one line on stderr when it cannot build.
//
// Like tools/build-electron.mjs's worker bundles (ESM), with three differences:
// - the target is the Node that builds it (recorded: another Node does not use it), as tsx's is;
// - packages stay external: the bundle lives in .cache/workers/ inside the checkout, so Node finds them
//   in node_modules as it does for tsx, and the manifest lists only our own files;
// - `import.meta.url` becomes the URL of the source file it is written in, so what a module finds beside
//   itself (a nested worker's entry, the demo folder) is what it finds under tsx. The Electron build
//   does not need this because every worker bundle sits beside the others in dist/electron/ under its
//   entry's name; .cache/workers/ holds bundles named by content, not entries.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_FORMAT, bundlePaths } from './fresh-bundle.mjs';

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
  const stats = inputs.map((f) => {
    const s = statSync(f);
    if (s.mtimeMs >= startedMs) throw new Error(`${f} changed during the build`);
    return { path: f, size: s.size, mtimeMs: s.mtimeMs };
  });
  mkdirSync(p.cacheDir, { recursive: true });
  // Named by its content: a manifest always names the bundle it was written with, even when two
  // processes build at once (each renames its own files into place).
  const bundleName = `${p.name}.${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`;
  const bundle = path.join(p.cacheDir, bundleName);
  const tmp = `.${process.pid}.tmp`;
  writeFileSync(bundle + tmp, text);
  renameSync(bundle + tmp, bundle);
  const b = statSync(bundle);
  const previous = previousBundle(p.manifest);
  writeFileSync(p.manifest + tmp, JSON.stringify({ format: BUNDLE_FORMAT, node: process.versions.node, main: p.main, bundle: bundleName, bundleSize: b.size, bundleMtimeMs: b.mtimeMs, inputs: stats }));
  renameSync(p.manifest + tmp, p.manifest);
  // A worker that already imported the old bundle keeps running: its code is in memory.
  if (previous && previous !== bundleName) rmSync(path.join(p.cacheDir, previous), { force: true });
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
  try {
    await buildWorkerBundle(process.argv[2], process.argv[3] || undefined);
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    process.exit(1);
  }
}
