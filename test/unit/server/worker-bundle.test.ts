// Worker threads start from a pre-bundled file instead of compiling TypeScript through tsx each time
// (issues #24, #27; services/worker-entry/). What must hold: a worker never runs code older than its
// sources (any input's size or mtime changed → tsx, until the main thread builds again), no bundle or a
// failed build leaves the worker on tsx, and a bundled worker answers exactly as the tsx one does.
import { Worker } from 'node:worker_threads';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWorkerBundle, setWorkerBundleLog } from '../../../services/worker-entry/ensure-bundle.ts';
import { freshBundle } from '../../../services/worker-entry/fresh-bundle.mjs';
import { buildWorkerBundle } from '../../../services/worker-entry/build-bundle.mjs';
import { loadBundle } from '../../../services/bundle/load.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { runFindings } from '../../../services/backend/findings-runner.ts';
import type { ParsedFile } from '../../../parsers/bundle/parsed-file.ts';

const repo = path.resolve(import.meta.dirname, '../../..');
const runner = pathToFileURL(path.join(repo, 'services/worker-entry/run-worker-main.mjs')).href;
let dir: string;
let entry: string;
let cache: string;
let value: string;

/** A one-module worker: what VALUE it was built with, and whether it ran from a bundle. */
function writeProbe(at: string, cacheDir: string): string {
  const e = path.join(at, 'probe-worker.mjs');
  // Outside the project: its .ts files are ES modules, as ours are.
  writeFileSync(path.join(at, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(e, `import { runWorkerMain } from ${JSON.stringify(runner)};\nawait runWorkerMain(import.meta.url, ${JSON.stringify(cacheDir)});\n`);
  writeFileSync(
    path.join(at, 'probe-worker-main.ts'),
    "import { parentPort } from 'node:worker_threads';\nimport { VALUE } from './value.ts';\n" +
      "const where: string = new Error().stack ?? '';\nparentPort!.postMessage({ value: VALUE, bundled: !where.includes('probe-worker-main.ts') });\n",
  );
  return e;
}

function ask(file: string, env?: NodeJS.ProcessEnv): Promise<{ value: number; bundled: boolean }> {
  const w = new Worker(file, env ? { env } : {});
  return new Promise<{ value: number; bundled: boolean }>((resolve, reject) => {
    w.once('message', resolve);
    w.once('error', reject);
  }).finally(() => void w.terminate());
}

/** Changes the file and moves its mtime on, as an editor's save does. */
function edit(file: string, text: string): void {
  const before = statSync(file).mtimeMs;
  writeFileSync(file, text);
  const t = new Date(before + 2000);
  utimesSync(file, t, t);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hnsight-worker-bundle-'));
  cache = path.join(dir, 'cache');
  entry = writeProbe(dir, cache);
  value = path.join(dir, 'value.ts');
  const old = new Date(Date.now() - 60_000);
  writeFileSync(value, 'export const VALUE: number = 1;\n');
  utimesSync(value, old, old);
  utimesSync(path.join(dir, 'probe-worker-main.ts'), old, old);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a worker entry with a bundle', () => {
  it('without a bundle, runs its TypeScript through tsx', async () => {
    expect(freshBundle(entry, cache)).toBeUndefined();
    expect(await ask(entry)).toEqual({ value: 1, bundled: false });
  });

  it('runs the bundle the main thread built, and never one older than a source it imports', async () => {
    expect(ensureWorkerBundle(entry, { cacheDir: cache })).toBe('built');
    expect(freshBundle(entry, cache)).toMatch(/^file:.*probe-worker\.[0-9a-f]{16}\.mjs$/);
    expect(await ask(entry)).toEqual({ value: 1, bundled: true });

    // The same size, a later mtime: stale. This process built once already, so the worker goes to tsx.
    edit(value, 'export const VALUE: number = 2;\n');
    expect(freshBundle(entry, cache)).toBeUndefined();
    expect(ensureWorkerBundle(entry, { cacheDir: cache })).toBe('skipped');
    expect(await ask(entry)).toEqual({ value: 2, bundled: false });

    // The next process builds again: the new constant, bundled.
    await buildWorkerBundle(entry, cache);
    expect(await ask(entry)).toEqual({ value: 2, bundled: true });

    // Another size, the mtime put back as it was: stale too.
    const { mtime } = statSync(value);
    writeFileSync(value, 'export const VALUE: number = 30;\n');
    utimesSync(value, mtime, mtime);
    expect(freshBundle(entry, cache)).toBeUndefined();
    expect(await ask(entry)).toEqual({ value: 30, bundled: false });
    await buildWorkerBundle(entry, cache);
    expect(await ask(entry)).toEqual({ value: 30, bundled: true });

    // HNSIGHT_WORKER_BUNDLES=0: tsx, bundle or not.
    expect(await ask(entry, { ...process.env, HNSIGHT_WORKER_BUNDLES: '0' })).toEqual({ value: 30, bundled: false });
  }, 60_000);

  it('a bundle that cannot be built leaves the worker on tsx, with one line on the log sink', async () => {
    const at = mkdtempSync(path.join(dir, 'ro-'));
    // The cache folder's place is taken by a file: the build cannot write.
    const blocked = path.join(at, 'cache');
    writeFileSync(blocked, '');
    const e = writeProbe(at, blocked);
    writeFileSync(path.join(at, 'value.ts'), 'export const VALUE: number = 7;\n');
    const lines: string[] = [];
    setWorkerBundleLog((l) => lines.push(l));
    try {
      expect(ensureWorkerBundle(e, { cacheDir: blocked })).toBe('failed');
      expect(ensureWorkerBundle(e, { cacheDir: blocked })).toBe('skipped');
    } finally {
      setWorkerBundleLog(undefined);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/probe-worker worker starts through tsx/);
    expect(await ask(e)).toEqual({ value: 7, bundled: false });
  }, 60_000);
});

describe('the product workers, bundled and through tsx', () => {
  const DEMO = path.join(repo, 'assets/demo/l2bridge-node');
  const backend = path.join(repo, 'services/backend');

  it('find the same findings on the demo node (the checks worker, whose modules find files beside them)', async () => {
    const reuse: ParsedFile[] = [];
    await loadBundle(DEMO, { bigFileBytes: 0, onBigParsed: (p) => p.content.type === 'vfp' && reuse.push(p) });
    const findingsEntry = path.join(backend, 'findings-worker.mjs');
    expect(['fresh', 'built']).toContain(ensureWorkerBundle(findingsEntry));
    const bundle = freshBundle(findingsEntry);
    expect(bundle).toBeDefined();
    // import.meta.url is the source file's in the bundle, as under tsx (build-bundle.mjs).
    expect(readFileSync(new URL(bundle!), 'utf8')).toContain(JSON.stringify(pathToFileURL(path.join(repo, 'services/bundle/parse-pool.ts')).href));
    const bundled = await runFindings({ origin: diskOrigin(DEMO), reuse }, () => undefined).done;
    process.env.HNSIGHT_WORKER_BUNDLES = '0';
    let viaTsx;
    try {
      viaTsx = await runFindings({ origin: diskOrigin(DEMO), reuse }, () => undefined).done;
    } finally {
      delete process.env.HNSIGHT_WORKER_BUNDLES;
    }
    expect(bundled.length).toBeGreaterThan(0);
    expect(bundled).toEqual(viaTsx);
  }, 180_000);
});
