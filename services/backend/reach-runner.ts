// Runs the reachability matrix of one node (analysis/reach reachMatrix) in a worker thread
// (reach-worker-main.ts), the way findings-runner.ts runs the checks: every cell is a walk and its
// reply, seconds on a mid-size node, which on the backend's one event loop would hold every other
// request. The worker rebuilds the node from what it was read from (findings-runner.ts says why that
// beats sending it over) and reports after every source; a run can be stopped (the user's Cancel, the
// node closed).
import { Worker } from 'node:worker_threads';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import type { ReachMatrixView } from '../../analysis/view-models/reach-data.ts';
import type { BundleOrigin } from '../bundle/origin.ts';
import type { StepProgress, StepRun } from './bundle-step-runner.ts';

export interface ReachRequest {
  origin: BundleOrigin;
  reuse: ParsedFile[];
  /** The node's findings, to name those on each cell's path. */
  findings: FindingView[];
  /** Most cells walked; the rest are left out and the reply's notes say so. */
  maxCells: number;
  /** How long the walks may take, in ms; sources not reached by then are left out and said. */
  maxMs: number;
}

export type ReachMessage =
  | { type: 'progress'; done: number; total: number; what?: string }
  | { type: 'done'; view: ReachMatrixView }
  | { type: 'error'; message: string };

/** Cells a view walks at most: 250 pods × a few hundred destinations; beyond, the reply would be tens of MB. */
export const VIEW_MAX_CELLS = 100_000;
const WORKER_HEAP_MB = 4096;

export class ReachCancelled extends Error {
  override name = 'ReachCancelled';
}

/**
 * Starts the matrix once the findings are known (they name what each path crosses). `findings` may
 * reject: the matrix is then worked out without them.
 */
export function runReach(req: Omit<ReachRequest, 'findings'>, findings: Promise<FindingView[]>, onProgress: (p: StepProgress) => void, opts: { workerUrl?: URL } = {}): StepRun<ReachMatrixView> {
  let settled = false;
  let worker: Worker | undefined;
  let cancel: () => void = () => undefined;
  const done = new Promise<ReachMatrixView>((resolve, reject) => {
    const end = (e?: Error, v?: ReachMatrixView) => {
      if (settled) return;
      settled = true;
      void worker?.terminate();
      if (e) reject(e);
      else resolve(v!);
    };
    cancel = () => end(new ReachCancelled('the reachability was stopped'));
    onProgress({ done: 0, total: 0, what: 'waiting for the checks (they name the findings on each path)' });
    // The findings only name what is on each path: a failed run of the checks leaves them out. What
    // starting the worker may throw ends the run (the .catch at the end).
    void findings
      .catch(() => [] as FindingView[])
      .then((f) => {
        if (settled) return;
        const w = new Worker(opts.workerUrl ?? new URL('./reach-worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
        worker = w;
        w.on('message', (m: ReachMessage) => {
          if (m.type === 'progress') {
            if (!settled) onProgress({ done: m.done, total: m.total, what: m.what });
          } else if (m.type === 'done') end(undefined, m.view);
          else end(new Error(m.message));
        });
        w.on('error', (e: Error & { code?: string }) => end(new Error(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the reachability ran out of memory (more than ${WORKER_HEAP_MB} MB)` : e.message)));
        w.on('exit', (code) => end(new Error(`the reachability stopped unexpectedly (exit code ${code})`)));
        w.postMessage({ ...req, findings: f } satisfies ReachRequest);
      })
      .catch((e: unknown) => end(e instanceof Error ? e : new Error(String(e))));
  });
  return { done, cancel: () => cancel() };
}
