// `node --expose-gc --import tsx test/bench/server-memory.ts [BUNDLE] [--json]`: what the app server
// holds, step by step, on one node (issue #27 point 2: the server's peak RSS ≤ 0.5× the bundle). The
// bundle is opened through services/backend's Backend as the tests and `hnsight serve` do; after each
// step (load, search index, findings, Services table, reachability's first pass) it prints the
// process's resident set now and at its highest during the step (sampled every 50 ms, and VmHWM), the
// main thread's JS heap and the memory outside it (array buffers). Worker threads share the process:
// their heaps are in the resident set. Prints figures; never asserts. Default bundle: the bench's big node.
// `--serve [--tree DIR]`: the same steps against `hnsight serve` run as a process from DIR's checkout
// (default this one; from its CLI bundle when current, as `npm start` runs it — HNSIGHT_CLI_BUNDLE=0 for
// tsx), driven over HTTP (serve-client.ts): the figures are that process's (no heap columns).
import { readFileSync, readdirSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import wt from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import type { ApiEvent, BundleStep } from '../../contract/index.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
/** `--threads`: each thread's V8 heap (used, resident, outside it) at its highest during each step. */
const perThread = args.includes('--threads') || args.includes('--snapshot');
/** `--snapshot DIR`: heap snapshots of the main thread and every live worker after the reachability first pass. */
const snapshotDir = args.includes('--snapshot') ? args[args.indexOf('--snapshot') + 1] : undefined;
const live = new Set<{ name: string; w: wt.Worker }>();
/**
 * `--reach-early`: the user opens the Reachability view as soon as the node is loaded, while the checks
 * run (attach, ask for the matrix, then wait for the findings and the first pass); the other steps are
 * left out. Before the reachability worker waited for the checks, both workers held a node at once.
 */
const reachEarly = args.includes('--reach-early');
/** `--until findings`: stops after that step (a quicker look at one step). */
const until = args.includes('--until') ? args[args.indexOf('--until') + 1] : undefined;
const serveMode = args.includes('--serve');
const tree = args.includes('--tree') ? path.resolve(args[args.indexOf('--tree') + 1]) : path.resolve(import.meta.dirname, '../..');
const bundle = path.resolve(args.find((a, i) => !a.startsWith('--') && !['--until', '--snapshot', '--tree'].includes(args[i - 1])) ?? '.cache/bench-node-250p-2000s');
const files = readdirSync(bundle).filter((f) => statSync(path.join(bundle, f)).isFile());
const bundleBytes = files.reduce((n, f) => n + statSync(path.join(bundle, f)).size, 0);
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const log = (s: string) => process.stderr.write(s + '\n');

/** The process measured: this one, or the `hnsight serve` it started (--serve). */
let measuredPid: number | 'self' = 'self';
function status(key: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(readFileSync(`/proc/${measuredPid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Each thread's heap at its highest during the step (by what the thread has resident: heap + malloc + outside). */
interface ThreadMem {
  name: string;
  used: number;
  physical: number;
  malloced: number;
  external: number;
}
const threadPeaks = new Map<string, ThreadMem>();
const footprint = (m: ThreadMem) => m.physical + m.malloced + m.external;
function noteThread(m: ThreadMem): void {
  const was = threadPeaks.get(m.name);
  if (!was || footprint(m) > footprint(was)) threadPeaks.set(m.name, m);
}
function heapOf(name: string, h: v8.HeapInfo & { external_memory?: number }): ThreadMem {
  return { name, used: h.used_heap_size, physical: h.total_physical_size, malloced: h.malloced_memory, external: h.external_memory ?? 0 };
}
if (perThread) {
  // Every worker the backend starts is started through this wrapper: it posts its thread's heap
  // statistics every 100 ms on a port of its own (not the app's messages), then runs the entry.
  const Base = wt.Worker;
  let n = 0;
  class Probed extends Base {
    constructor(entry: string | URL, opts: wt.WorkerOptions = {}) {
      const ch = new wt.MessageChannel();
      const href = entry instanceof URL ? entry.href : entry.startsWith('file:') ? entry : `file://${path.resolve(entry)}`;
      const name = `${path.basename(href).replace(/\.mjs$/, '')}#${++n}`;
      const code = `const { workerData: d } = require('node:worker_threads'); const v8 = require('node:v8');
        const post = () => d.__probe.postMessage(v8.getHeapStatistics()); post(); setInterval(post, 100).unref();
        import(d.__entry);`;
      super(code, { ...opts, eval: true, workerData: { __probe: ch.port2, __entry: href }, transferList: [ch.port2] });
      ch.port1.on('message', (h: v8.HeapInfo) => noteThread(heapOf(name, h)));
      ch.port1.unref();
      const me = { name, w: this as wt.Worker };
      live.add(me);
      this.once('exit', () => (ch.port1.close(), live.delete(me)));
    }
  }
  (wt as { Worker: typeof Base }).Worker = Probed;
  syncBuiltinESMExports();
}
type BackendT = import('../../services/backend/backend.ts').Backend;

let stepPeak = 0;
const sampler = setInterval(() => {
  stepPeak = Math.max(stepPeak, status('VmRSS'));
  if (perThread) noteThread(heapOf('main', v8.getHeapStatistics()));
}, 50);
const gc = (globalThis as { gc?: () => void }).gc;

interface Row {
  step: string;
  ms: number;
  rss: number;
  stepPeakRss: number;
  hwm: number;
  heapUsed: number;
  arrayBuffers: number;
}
const rows: Row[] = [];
let t = performance.now();
function record(step: string): void {
  // In --serve mode the heap is the server's, not known here.
  const m = serveMode ? { heapUsed: 0, arrayBuffers: 0 } : process.memoryUsage();
  const rss = status('VmRSS');
  rows.push({ step, ms: Math.round(performance.now() - t), rss, stepPeakRss: Math.max(stepPeak, rss), hwm: status('VmHWM'), heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers });
  log(`${step.padEnd(28)} ${String(rows.at(-1)!.ms).padStart(6)} ms  RSS ${mib(rss).padStart(9)}  step peak ${mib(rows.at(-1)!.stepPeakRss).padStart(9)} = ${(rows.at(-1)!.stepPeakRss / bundleBytes).toFixed(2)}×  heap ${mib(m.heapUsed).padStart(8)}  array buffers ${mib(m.arrayBuffers).padStart(8)}`);
  if (perThread) {
    for (const m of threadPeaks.values())
      log(`    ${m.name.padEnd(24)} heap used ${mib(m.used).padStart(8)}  resident ${mib(m.physical).padStart(8)}  malloc ${mib(m.malloced).padStart(7)}  outside ${mib(m.external).padStart(7)}`);
    threadPeaks.clear();
  }
  stepPeak = 0;
  t = performance.now();
  if (until && step.startsWith(until)) {
    log(`peak RSS ${mib(status('VmHWM'))} = ${(status('VmHWM') / bundleBytes).toFixed(2)}× the bundle (stopped after ${step})`);
    process.exit(0);
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hnsight-mem-'));
/** What the steps call: the backend in this process, or the one `hnsight serve` runs (--serve). */
interface Target {
  invoke: BackendT['invoke'];
  onEvent(listener: (e: ApiEvent) => void): void;
  waitForLoad: BackendT['waitForLoad'];
  close(): Promise<void>;
}
async function target(): Promise<Target> {
  if (!serveMode) {
    const { Backend } = await import('../../services/backend/backend.ts');
    const b = new Backend({ mode: 'browser', dataDir, initialBundle: bundle });
    return { invoke: b.invoke.bind(b), onEvent: (l) => void b.onEvent(l), waitForLoad: b.waitForLoad.bind(b), close: async () => undefined };
  }
  const { startServe } = await import('./serve-client.ts');
  const c = await startServe(tree, bundle);
  measuredPid = c.pid;
  const invoke = c.invoke as unknown as BackendT['invoke'];
  return {
    invoke,
    onEvent: c.onEvent,
    async waitForLoad(jobId) {
      for (;;) {
        const j = await invoke('getJob', { jobId });
        if (j && j.state !== 'loading') return j;
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    close: c.close,
  };
}
const backend = await target();
log(`measuring ${serveMode ? `hnsight serve from ${tree} (pid ${measuredPid})` : 'the backend in this process'}`);
const steps = new Map<string, BundleStep>();
const waiters: (() => void)[] = [];
backend.onEvent((e: ApiEvent) => {
  if (e.type !== 'step') return;
  steps.set(e.job.step, e.job);
  for (const w of waiters.splice(0)) w();
});
async function stepDone(step: BundleStep['step']): Promise<void> {
  for (;;) {
    const s = steps.get(step);
    if (s?.state === 'done') return;
    if (s?.state === 'error') throw new Error(`${step}: ${s.error}`);
    await new Promise<void>((r) => waiters.push(r));
  }
}

log(`bundle ${bundle}: ${mib(bundleBytes)}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
record('start');
const job = await backend.waitForLoad((await backend.invoke('openBundle', { path: bundle })).jobId);
if (job.state !== 'done') throw new Error(`the load ended ${job.state}: ${job.error ?? ''}`);
const bundleId = job.summary!.id;
record('loaded');
if (reachEarly) {
  await backend.invoke('attachBundle', { bundleId, client: 'bench' });
  const rows = await backend.invoke('reachMatrix', { bundleId });
  record(`attached, matrix asked (rows ${rows.ready ? 'shown' : 'not ready'})`);
  await backend.invoke('getFindings', { bundleId });
  record('findings');
  while (!(await backend.invoke('reachMatrix', { bundleId })).ready);
  await stepDone('reach');
  record('reachability first pass');
  clearInterval(sampler);
  const peak = status('VmHWM');
  log(`peak RSS ${mib(peak)} = ${(peak / bundleBytes).toFixed(2)}× the bundle; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  if (json) process.stdout.write(JSON.stringify({ bundleBytes, serverPeakRssBytes: peak, ratio: peak / bundleBytes, rows, loadavg: os.loadavg() }) + '\n');
  process.exit(0);
}
await stepDone('search');
record('search index');
await backend.invoke('getTopology', { bundleId });
const inventory = await backend.invoke('getInventory', { bundleId });
record('topology, inventory');
await backend.invoke('attachBundle', { bundleId, client: 'bench' });
await backend.invoke('getFindings', { bundleId });
record('findings');
for (const q of ['10.', 'nginx', 'DROP']) await backend.invoke('search', { bundleId, query: q });
record('searches');
const presets = await backend.invoke('walkPresets', { bundleId });
for (const p of presets) await backend.invoke('walk', { bundleId, ...p.flow, reply: true });
record(`walks (${presets.length} presets)`);
// The inspector on the busiest port, as bench:app opens it.
const ports = inventory.find((t) => t.key === 'ports')?.rows ?? [];
const busiest = [...ports].sort((a, b) => Number(b.cells.rules) - Number(a.cells.rules))[0];
if (busiest) await backend.invoke('inspect', { bundleId, ref: busiest.ref });
record('inspector, busiest port');
await backend.invoke('exportReport', { bundleId, format: 'html', traces: presets.slice(0, 2).map((p) => p.flow), redact: false });
record('export HTML');
while ((await backend.invoke('getServices', { bundleId })) === null);
record('Services table');
while (!(await backend.invoke('reachMatrix', { bundleId })).ready);
await stepDone('reach');
record('reachability first pass');
if (snapshotDir) {
  const { writeHeapSnapshot } = v8;
  const { pipeline } = await import('node:stream/promises');
  const { createWriteStream } = await import('node:fs');
  for (const { name, w } of live) await pipeline(await w.getHeapSnapshot(), createWriteStream(path.join(snapshotDir, `${name}.heapsnapshot`)));
  writeHeapSnapshot(path.join(snapshotDir, 'main.heapsnapshot'));
  log(`heap snapshots in ${snapshotDir}`);
}
gc?.();
await new Promise((r) => setTimeout(r, 500));
record('after a collection');
clearInterval(sampler);
const peak = status('VmHWM');
log(`peak RSS ${mib(peak)} = ${(peak / bundleBytes).toFixed(2)}× the bundle; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (json) process.stdout.write(JSON.stringify({ bundleBytes, serverPeakRssBytes: peak, ratio: peak / bundleBytes, rows, loadavg: os.loadavg() }) + '\n');
await backend.invoke('closeBundle', { bundleId });
await backend.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
