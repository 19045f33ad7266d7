// The main thread's side of worker bundles: when a worker is about to start and its bundle is missing
// or stale, a build is started in a child process and the worker starts through tsx meanwhile; the
// workers started after the build ends run the bundle (run-worker-main.mjs decides, per start).
//
// Why asynchronous and not only ahead of time: the bundle is needed wherever a worker starts — the
// browser-mode server, the CLI, the desktop app run from a checkout, tests, benchmarks, scripts — and a
// source may be edited while any of them runs. A build on demand covers them all; waiting for it would
// stop the thread that asked (new Worker() is synchronous: 1–2 s of a server answering nothing), so
// nothing waits for it. The cost: the few workers that start during a build run through tsx, as before.
// Where the next worker starts are predictable and the wait costs nobody, the build is also done ahead:
// tools/start.mjs before it starts the server, test/global-setup.ts before the first test file.
//
// One build at a time per process; entries asked for meanwhile are built together by the next one.
// A build that fails says so once on the log sink and is not tried again in this process (its workers
// stay on tsx). An input written during a build ("changed") is not a failure: the next start asks
// again, twice at most in a row. In one of our workers, nothing is built (a nested worker still
// chooses between its bundle and tsx by itself). The packaged app builds nothing: its workers are
// dist/electron/*.mjs, with no *-main.ts beside them.
import { existsSync } from 'node:fs';
import { bundlePaths, freshBundle } from './fresh-bundle.mjs';
import { buildInChild, type BuildResult, type ChildBuild } from './build-in-child.mjs';

type Phase = 'queued' | 'building' | 'failed';
interface EntryState {
  phase?: Phase;
  /** Builds in a row that ended "changed". */
  changed: number;
}

const states = new Map<string, EntryState>();
let queue: { entry: string; cacheDir: string }[] = [];
let running: ChildBuild | undefined;
let idleWaiters: (() => void)[] = [];
let logSink: ((line: string) => void) | undefined;
const buildListeners = new Set<(build: ChildBuild) => void>();

/** Where a failed build says so (the backend's log); unset, failures are silent. */
export function setWorkerBundleLog(log: ((line: string) => void) | undefined): void {
  logSink = log;
}

/** Called with each build as it starts (its child's pid, its entries, its end). Returns the unsubscribe. */
export function onWorkerBundleBuild(listener: (build: ChildBuild) => void): () => void {
  buildListeners.add(listener);
  return () => buildListeners.delete(listener);
}

/**
 * Asks for the entry's bundle if it is not current, and returns the entry unchanged (the worker entry
 * itself chooses between the bundle and tsx), so a call site reads `new Worker(workerEntry(url))`.
 */
export function workerEntry<T extends string | URL>(entry: T, opts: { cacheDir?: string } = {}): T {
  requestWorkerBundle(entry, opts);
  return entry;
}

/**
 * 'fresh': the bundle is current. 'building': a build that will include it is queued or running (the
 * worker started now runs through tsx). 'skipped': never built here — in one of our workers, turned
 * off, no TypeScript main beside the entry, or its build failed earlier in this process.
 */
export type RequestResult = 'fresh' | 'building' | 'skipped';

export function requestWorkerBundle(entry: string | URL, opts: { cacheDir?: string } = {}): RequestResult {
  if ((globalThis as { __hnsightWorkerThread?: boolean }).__hnsightWorkerThread || process.env.HNSIGHT_WORKER_BUNDLES === '0') return 'skipped';
  const p = bundlePaths(entry, opts.cacheDir);
  if (!existsSync(p.main)) return 'skipped';
  const key = stateKey(p);
  const state = states.get(key) ?? { changed: 0 };
  states.set(key, state);
  if (state.phase === 'failed') return 'skipped';
  if (state.phase) return 'building';
  if (freshBundle(entry, p.cacheDir)) return 'fresh';
  state.phase = 'queued';
  queue.push({ entry: entryFile(p), cacheDir: p.cacheDir });
  startNext();
  return 'building';
}

/** Resolves when no build is running or queued (tests; a caller that wants the bundles before it goes on). */
export function workerBundlesSettled(): Promise<void> {
  if (!running && queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.push(resolve));
}

function stateKey(p: { main: string; manifest: string }): string {
  return `${p.main}\0${p.manifest}`;
}

/** The `<name>.mjs` beside `<name>-main.ts`, as an absolute path (what build-bundle.mjs takes). */
function entryFile(p: { main: string }): string {
  return p.main.replace(/-main\.ts$/, '.mjs');
}

function startNext(): void {
  if (running) return;
  if (queue.length === 0) {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
    return;
  }
  // One child builds every entry queued for the same cache folder.
  const { cacheDir } = queue[0];
  const batch = queue.filter((q) => q.cacheDir === cacheDir).map((q) => q.entry);
  queue = queue.filter((q) => q.cacheDir !== cacheDir);
  for (const e of batch) stateOf(e, cacheDir).phase = 'building';
  // Detached: a CLI run that ends first does not wait for the build, which still lands for the next run.
  const build = buildInChild(batch, { cacheDir, detached: true });
  running = build;
  for (const l of buildListeners) l(build);
  void build.done.then((results) => {
    running = undefined;
    for (const r of results) settle(r, cacheDir);
    startNext();
  });
}

function stateOf(entry: string, cacheDir: string): EntryState {
  const key = stateKey(bundlePaths(entry, cacheDir));
  const s = states.get(key) ?? { changed: 0 };
  states.set(key, s);
  return s;
}

function settle(r: BuildResult, cacheDir: string): void {
  const s = stateOf(r.entry, cacheDir);
  if (r.result === 'changed' && s.changed < 1) {
    s.changed++;
    s.phase = undefined;
    return;
  }
  if (r.result === 'failed' || r.result === 'changed') {
    s.phase = 'failed';
    const why = r.result === 'changed' ? `its sources kept changing during the build (${r.message ?? ''})` : (r.message ?? 'unknown error');
    logSink?.(`hnsight: the ${bundlePaths(r.entry, cacheDir).name} worker starts through tsx (its bundle could not be built: ${why})`);
    return;
  }
  s.changed = 0;
  s.phase = undefined;
}
