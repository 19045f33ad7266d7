#!/usr/bin/env node
// Bundles the Electron shell with esbuild (no Electron binary needed):
//   electron/main/index.ts                      → dist/electron/main.cjs        (main process, CJS)
//   electron/preload/index.ts                   → dist/electron/preload.cjs     (sandboxed preload: one CJS file, requires only 'electron')
//   services/bundle/parse-worker-main.ts → dist/electron/parse-worker.mjs (the parser's worker thread)
//   services/backend/findings-worker-main.ts → dist/electron/findings-worker.mjs (the checks' worker thread)
//   services/backend/reach-worker-main.ts → dist/electron/reach-worker.mjs (the reachability's worker thread)
//   services/backend/services-worker-main.ts → dist/electron/services-worker.mjs (the Services table's worker thread)
//   services/backend/reach-diff-worker-main.ts → dist/electron/reach-diff-worker.mjs (a comparison's reachability)
// `electron` stays external; everything else (the backend, parsers, zod, yauzl) is bundled, so the
// packaged app needs no node_modules.
//
// `import.meta.url` (used by the services to find files beside them, e.g. the parser worker) becomes
// the file URL of main.cjs. Packaged, it points into app.asar.unpacked, where electron-builder.yml
// unpacks every worker .mjs: a worker thread cannot be started from inside an
// asar archive.
//
// Usage: node tools/build-electron.mjs [--outdir DIR] [--watch]
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild options for the four bundles (exported for tests). */
export function buildOptions({ outdir = path.join(repo, 'dist', 'electron'), minify = false } = {}) {
  const common = {
    absWorkingDir: repo,
    bundle: true,
    sourcemap: 'linked',
    minify,
    logLevel: 'warning',
    legalComments: 'none',
    external: ['electron'],
  };
  const metaUrlBanner =
    'var __hnsight_import_meta_url = require("url").pathToFileURL(__filename.replace(/([\\\\/])app\\.asar([\\\\/])/, "$1app.asar.unpacked$2")).href;';
  return [
    {
      ...common,
      entryPoints: [path.join(repo, 'electron/main/index.ts')],
      outfile: path.join(outdir, 'main.cjs'),
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      define: { 'import.meta.url': '__hnsight_import_meta_url' },
      banner: { js: metaUrlBanner },
      // Live collection brings ssh2, whose native add-ons (sshcrypto.node, cpu-features) are optional:
      // it requires them inside try/catch and falls back to Node's crypto. Left out of the bundle.
      external: [...common.external, '*.node'],
    },
    {
      ...common,
      entryPoints: [path.join(repo, 'electron/preload/index.ts')],
      outfile: path.join(outdir, 'preload.cjs'),
      // A sandboxed preload has a browser-like environment plus require('electron').
      platform: 'browser',
      format: 'cjs',
      target: 'chrome140',
    },
    ...[
      ['services/bundle/parse-worker-main.ts', 'parse-worker.mjs'],
      ['services/backend/findings-worker-main.ts', 'findings-worker.mjs'],
      ['services/backend/reach-worker-main.ts', 'reach-worker.mjs'],
      // Every worker the backend starts (`new URL('./<name>.mjs', import.meta.url)`) must be beside main.cjs:
      // the Services table and Compare's reachability had none in the desktop build.
      ['services/backend/services-worker-main.ts', 'services-worker.mjs'],
      ['services/backend/reach-diff-worker-main.ts', 'reach-diff-worker.mjs'],
    ].map(([entry, out]) => ({
      ...common,
      entryPoints: [path.join(repo, entry)],
      outfile: path.join(outdir, out),
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // Lets bundled CommonJS code require Node built-ins from an ES module.
      banner: { js: 'import { createRequire as __hnsightCreateRequire } from "node:module"; const require = __hnsightCreateRequire(import.meta.url);' },
    })),
  ];
}

export async function buildElectron(opts = {}) {
  const results = await Promise.all(buildOptions(opts).map((o) => esbuild.build(o)));
  return results.flatMap((r) => r.warnings);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--outdir');
  const outdir = outIdx >= 0 ? path.resolve(args[outIdx + 1]) : undefined;
  if (args.includes('--watch')) {
    const ctxs = await Promise.all(buildOptions({ outdir }).map((o) => esbuild.context(o)));
    await Promise.all(ctxs.map((c) => c.watch()));
    console.log('hnsight: watching electron/ (Ctrl+C to stop)');
  } else {
    try {
      await buildElectron({ outdir, minify: args.includes('--minify') });
    } catch (e) {
      console.error(`hnsight: building the Electron shell failed: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    }
  }
}
