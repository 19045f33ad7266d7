// Worker threads start from a pre-bundled file instead of compiling TypeScript through tsx each time
// (issues #24, #27; services/worker-entry/). What must hold: the thread that starts a worker never waits
// for a build (it runs in a child; the workers started meanwhile run through tsx); a worker never runs
// code older than its sources (any input's size or mtime changed → tsx, until a build ends); no bundle
// or a failed build leaves the worker on tsx with one line on the log sink; two builds at once leave a
// bundle that runs; and a bundled worker answers exactly as the tsx one does.
import { Worker } from 'node:worker_threads';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestWorkerBundle, setWorkerBundleLog, workerBundlesSettled } from '../../../services/worker-entry/ensure-bundle.ts';
import { freshBundle } from '../../../services/worker-entry/fresh-bundle.mjs';
import { buildInChild, type ChildBuild } from '../../../services/worker-entry/build-in-child.mjs';
import { holdBuilds } from './worker-bundle-hold.ts';
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

  it('starts a build without waiting for it, runs tsx until it ends, then the bundle; never one older than a source it imports', async () => {
    const hold = holdBuilds();
    try {
      // The build is stopped (SIGSTOP) as it starts: whatever runs now runs while it is in progress.
      expect(requestWorkerBundle(entry, { cacheDir: cache })).toBe('building');
      expect(hold.builds).toHaveLength(1);
      expect(requestWorkerBundle(entry, { cacheDir: cache })).toBe('building');
      expect(hold.builds).toHaveLength(1);
      expect(await ask(entry)).toEqual({ value: 1, bundled: false });
      hold.release();
      await workerBundlesSettled();
      expect(freshBundle(entry, cache)).toMatch(/^file:.*probe-worker\.[0-9a-f]{16}\.mjs$/);
      expect(requestWorkerBundle(entry, { cacheDir: cache })).toBe('fresh');
      expect(await ask(entry)).toEqual({ value: 1, bundled: true });

      // The same size, a later mtime: stale. The worker started now runs the new code through tsx.
      edit(value, 'export const VALUE: number = 2;\n');
      expect(freshBundle(entry, cache)).toBeUndefined();
      expect(requestWorkerBundle(entry, { cacheDir: cache })).toBe('building');
      expect(await ask(entry)).toEqual({ value: 2, bundled: false });
      hold.release();
      await workerBundlesSettled();
      expect(await ask(entry)).toEqual({ value: 2, bundled: true });

      // Another size, the mtime put back as it was: stale too.
      const { mtime } = statSync(value);
      writeFileSync(value, 'export const VALUE: number = 30;\n');
      utimesSync(value, mtime, mtime);
      expect(freshBundle(entry, cache)).toBeUndefined();
      expect(await ask(entry)).toEqual({ value: 30, bundled: false });
      expect(requestWorkerBundle(entry, { cacheDir: cache })).toBe('building');
      hold.release();
      await workerBundlesSettled();
      expect(await ask(entry)).toEqual({ value: 30, bundled: true });
      expect(hold.builds).toHaveLength(3);
    } finally {
      hold.stop();
    }

    // HNSIGHT_WORKER_BUNDLES=0: tsx, bundle or not.
    expect(await ask(entry, { ...process.env, HNSIGHT_WORKER_BUNDLES: '0' })).toEqual({ value: 30, bundled: false });
  }, 60_000);

  it('two processes building the same bundle at once both succeed and leave one that runs, and no temp file', async () => {
    const at = mkdtempSync(path.join(dir, 'race-'));
    const raceCache = path.join(at, 'cache');
    const e = writeProbe(at, raceCache);
    const old = new Date(Date.now() - 60_000);
    for (const f of ['value.ts', 'probe-worker-main.ts']) {
      if (f === 'value.ts') writeFileSync(path.join(at, f), 'export const VALUE: number = 5;\n');
      utimesSync(path.join(at, f), old, old);
    }
    // What a build killed an hour ago left, and what one in progress is writing now.
    mkdirSync(raceCache);
    writeFileSync(path.join(raceCache, 'probe-worker.json.111111.tmp'), '{');
    utimesSync(path.join(raceCache, 'probe-worker.json.111111.tmp'), new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    writeFileSync(path.join(raceCache, 'probe-worker.json.222222.tmp'), '{"format"');
    // Forced: each builds and writes, whatever the others did first. (Whether their writes interleave is
    // the scheduler's choice; what must hold is the end state, whichever it chose.)
    const builds: ChildBuild[] = [0, 1, 2].map(() => buildInChild([e], { cacheDir: raceCache, force: true }));
    const results = (await Promise.all(builds.map((b) => b.done))).flat();
    expect(results.map((r) => r.result)).toEqual(['built', 'built', 'built']);
    expect(readdirSync(raceCache).filter((f) => f.endsWith('.tmp'))).toEqual(['probe-worker.json.222222.tmp']);
    expect(readFileSync(path.join(raceCache, 'probe-worker.json.222222.tmp'), 'utf8')).toBe('{"format"');
    const manifest = JSON.parse(readFileSync(path.join(raceCache, 'probe-worker.json'), 'utf8')) as { bundle: string };
    expect(readdirSync(raceCache)).toContain(manifest.bundle);
    expect(freshBundle(e, raceCache)).toBeDefined();
    expect(await ask(e)).toEqual({ value: 5, bundled: true });
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
      expect(requestWorkerBundle(e, { cacheDir: blocked })).toBe('building');
      await workerBundlesSettled();
      // Not tried again in this process: one line, not one a worker start.
      expect(requestWorkerBundle(e, { cacheDir: blocked })).toBe('skipped');
      await workerBundlesSettled();
    } finally {
      setWorkerBundleLog(undefined);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/probe-worker worker starts through tsx \(its bundle could not be built: .*(EEXIST|ENOTDIR)/);
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
    requestWorkerBundle(findingsEntry);
    await workerBundlesSettled();
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
