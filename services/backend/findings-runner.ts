// Runs the checks of one node in a worker thread (findings-worker-main.ts) and reports how far they are.
// The backend has one event loop: the checks of a 250-pod node took 100 s on it and every request
// (search, walks, the layout worker's script) waited behind them. In a worker they cannot block it,
// a check that runs out of memory ends the worker, not the server, and a run can be stopped (the
// worker's life from request to answer is worker-step.ts, the Services table's too).
//
// The worker needs the node. Sending it over was measured against rebuilding it there (250-pod node,
// 921 MB, 2-core machine): a NodeModel is not cloneable as it is (the VFP store and the evidence text
// are closures, source lines are lazy getters), and cloning its plain parts on each worker's start cost
// the main thread as long as re-parsing them cost the worker, while blocking requests meanwhile. So the
// worker gets what the load parsed, made ready once per node (revive-node.ts): the small files'
// records serialized and compressed as they were parsed (packed-files.ts, ≈ 2.4 MiB of shared memory
// on that node), the VFP dumps' bytes (a file or a SharedArrayBuffer) and the scanner's index (≈ 20 MB
// of typed arrays, moved into shared memory once): nothing is copied on the event loop per worker.
import { Worker } from 'node:worker_threads';
import { WORKER_LIMITS } from './worker-limits.ts';
import { workerStep } from './worker-step.ts';
import type { StepProgress, StepRun } from './bundle-step-runner.ts';
import type { HandedFile } from './revive-node.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import type { BundleOrigin } from '../bundle/origin.ts';
import { workerEntry } from '../worker-entry/ensure-bundle.ts';

export interface FindingsRequest {
  origin: BundleOrigin;
  /** Files parsed by the load, taken over (VFP dumps whose bytes are shared memory, small files' packed records). */
  reuse: HandedFile[];
}

export type FindingsMessage =
  | { type: 'progress'; done: number; total: number; what?: string }
  | { type: 'done'; findings: FindingView[]; rebuildMs: number; checksMs: number }
  | { type: 'error'; message: string };

export type FindingsProgress = StepProgress;

export type FindingsRun = StepRun<FindingView[]>;

export class FindingsCancelled extends Error {
  override name = 'FindingsCancelled';
}

/** Stopping the run (`cancel`) rejects `done` with FindingsCancelled. */
export function runFindings(req: FindingsRequest, onProgress: (p: FindingsProgress) => void, opts: { workerUrl?: URL } = {}): FindingsRun {
  const w = new Worker(workerEntry(opts.workerUrl ?? new URL('./findings-worker.mjs', import.meta.url)), { resourceLimits: WORKER_LIMITS });
  return workerStep<FindingsMessage, FindingView[]>(w, req, onProgress, {
    answer: (m) => (m.type === 'done' ? { value: m.findings } : { error: new Error(m.message) }),
    stopped: () => new FindingsCancelled('the checks were stopped'),
    what: 'the checks',
  });
}
