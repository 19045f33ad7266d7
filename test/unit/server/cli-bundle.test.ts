// The command line — `hnsight serve`, browser mode's server, among its commands — runs from an esbuild
// bundle when one is current, as the workers do (services/worker-entry/cli-bundle.mjs): tsx's loader
// and compiled sources are ≈ 60 MiB of the server's resident set for its whole life. What must hold:
// a run never waits for a build (it starts one that outlives it and goes on through tsx); a run never
// uses a bundle older than a source; runs at once with a stale bundle start one build between them;
// and the real CLI answers the same bundled as through tsx.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_LOCK_MS, requestCliBundle } from '../../../services/worker-entry/cli-bundle.mjs';
import { freshBundle } from '../../../services/worker-entry/fresh-bundle.mjs';
import { buildInChild } from '../../../services/worker-entry/build-in-child.mjs';

const repo = path.resolve(import.meta.dirname, '../../..');
const cliBundleUrl = pathToFileURL(path.join(repo, 'services/worker-entry/cli-bundle.mjs')).href;
let dir: string;
let cache: string;
let entry: string;
let value: string;

/** A CLI-like entry (`probe.mjs` loading `probe-main.ts` the way bin/hnsight.mjs loads the CLI) that prints what VALUE it ran with, and whether from a bundle. */
function writeProbe(at: string, cacheDir: string): string {
  const e = path.join(at, 'probe.mjs');
  writeFileSync(path.join(at, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(e, `import { importCli } from ${JSON.stringify(cliBundleUrl)};\nconst { report } = await importCli({ entry: ${JSON.stringify(e)}, cacheDir: ${JSON.stringify(cacheDir)} });\nprocess.stdout.write(JSON.stringify(report()));\n`);
  writeFileSync(
    path.join(at, 'probe-main.ts'),
    "import { VALUE } from './value.ts';\nexport function report(): { value: number; bundled: boolean } {\n  const where: string = new Error().stack ?? '';\n  return { value: VALUE, bundled: !where.includes('probe-main.ts') };\n}\n",
  );
  return e;
}

function run(env: NodeJS.ProcessEnv = {}): { value: number; bundled: boolean } {
  const r = spawnSync(process.execPath, [entry], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`probe exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { value: number; bundled: boolean };
}

async function until(what: () => boolean, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lock = () => path.join(cache, 'probe.building');

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'hnsight-cli-bundle-'));
  cache = path.join(dir, 'cache');
  entry = writeProbe(dir, cache);
  value = path.join(dir, 'value.ts');
  const old = new Date(Date.now() - 60_000);
  writeFileSync(value, 'export const VALUE: number = 1;\n');
  for (const f of [value, path.join(dir, 'probe-main.ts')]) utimesSync(f, old, old);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI from a bundle', () => {
  it('a run without a current bundle answers through tsx and leaves a build behind it; the next run is bundled; an edit sends it back to tsx until rebuilt', async () => {
    expect(freshBundle(entry, cache)).toBeUndefined();
    expect(run()).toEqual({ value: 1, bundled: false });
    // The run has ended; its build goes on by itself and removes its lock when done.
    await until(() => freshBundle(entry, cache) !== undefined && !existsSync(lock()));
    expect(run()).toEqual({ value: 1, bundled: true });
    expect(run({ HNSIGHT_CLI_BUNDLE: '0' })).toEqual({ value: 1, bundled: false });

    const before = statSync(value).mtimeMs;
    writeFileSync(value, 'export const VALUE: number = 2;\n');
    utimesSync(value, new Date(before + 2000), new Date(before + 2000));
    expect(run()).toEqual({ value: 2, bundled: false });
    await until(() => freshBundle(entry, cache) !== undefined && !existsSync(lock()));
    expect(run()).toEqual({ value: 2, bundled: true });
  }, 180_000);

  it('a build already running (its lock) is not started again; a lock older than any build is taken over', () => {
    const before = statSync(value).mtimeMs;
    writeFileSync(value, 'export const VALUE: number = 3;\n');
    utimesSync(value, new Date(before + 2000), new Date(before + 2000));
    mkdirSync(cache, { recursive: true });
    writeFileSync(lock(), '');
    const spawned: string[][] = [];
    const spawnBuild = ((_cmd: string, args: string[]) => {
      spawned.push(args);
      return { on: () => undefined, unref: () => undefined };
    }) as unknown as typeof import('node:child_process').spawn;
    expect(requestCliBundle({ entry, cacheDir: cache, spawnBuild })).toBe('running');
    expect(spawned).toEqual([]);
    const dead = new Date(Date.now() - STALE_LOCK_MS - 1000);
    utimesSync(lock(), dead, dead);
    expect(requestCliBundle({ entry, cacheDir: cache, spawnBuild })).toBe('started');
    expect(spawned).toHaveLength(1);
    expect(spawned[0]).toEqual(expect.arrayContaining(['--lock', lock(), entry]));
    expect(Date.now() - statSync(lock()).mtimeMs).toBeLessThan(STALE_LOCK_MS);
    // Turned off: nothing is built.
    rmSync(lock());
    process.env.HNSIGHT_CLI_BUNDLE = '0';
    try {
      expect(requestCliBundle({ entry, cacheDir: cache, spawnBuild })).toBe('skipped');
    } finally {
      delete process.env.HNSIGHT_CLI_BUNDLE;
    }
    expect(spawned).toHaveLength(1);
  });

  it('the real CLI answers the same from its bundle as through tsx (inspect on the demo node)', async () => {
    const workers = path.join(repo, '.cache');
    mkdirSync(workers, { recursive: true });
    const own = mkdtempSync(path.join(workers, 'cli-bundle-test-'));
    try {
      const [built] = await buildInChild([path.join(repo, 'bin/hnsight.mjs')], { cacheDir: own }).done;
      expect(built.result).toBe('built');
      // A marker at the bundle's end (the manifest re-signed with its new size and mtime) proves the
      // first run came from the bundle, not through tsx with the same output.
      const manifestFile = path.join(own, 'hnsight.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { bundle: string; bundleSize: number; bundleMtimeMs: number };
      const bundleFile = path.join(own, manifest.bundle);
      appendFileSync(bundleFile, "\nprocess.stderr.write('hnsight-test: from the bundle\\n');\n");
      const st = statSync(bundleFile);
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, bundleSize: st.size, bundleMtimeMs: st.mtimeMs }));
      const inspect = (env: NodeJS.ProcessEnv) =>
        spawnSync(process.execPath, [path.join(repo, 'bin/hnsight.mjs'), 'inspect', path.join(repo, 'assets/demo/l2bridge-node')], { encoding: 'utf8', env: { ...process.env, HNSIGHT_WORKER_CACHE: own, ...env }, timeout: 120_000 });
      const bundled = inspect({});
      const tsx = inspect({ HNSIGHT_CLI_BUNDLE: '0' });
      expect(bundled.status).toBe(tsx.status);
      expect(bundled.stdout.length).toBeGreaterThan(500);
      expect(bundled.stdout).toBe(tsx.stdout);
      expect(bundled.stderr).toContain('hnsight-test: from the bundle');
      expect(tsx.stderr).not.toContain('hnsight-test: from the bundle');
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 240_000);
});
