// Runs the Services table of one node in a worker thread (services-worker-main.ts) and reports how far
// it is, as findings-runner.ts does for the checks: the backend has one event loop, and the table of a
// 2,000-Service node held every other request for many seconds on it. In a worker it cannot block it,
// a run that runs out of memory ends the worker, not the server, and a run can be stopped.
import { Worker } from 'node:worker_threads';
import { WORKER_HEAP_MB, WORKER_LIMITS } from './worker-limits.ts';
import { ApiError } from '../../contract/index.ts';
import type { ServicesTableView } from '../../analysis/view-models/services-table.ts';
import type { StepProgress, StepRun } from './bundle-step-runner.ts';
import { StepCancelled } from './bundle-step-runner.ts';
import type { ServicesMessage, ServicesRequest } from './services-protocol.ts';


export function runServices(req: ServicesRequest, onProgress: (p: StepProgress) => void, opts: { workerUrl?: URL } = {}): StepRun<ServicesTableView> {
  const w = new Worker(opts.workerUrl ?? new URL('./services-worker.mjs', import.meta.url), { resourceLimits: WORKER_LIMITS });
  let settled = false;
  let cancel: () => void = () => undefined;
  const done = new Promise<ServicesTableView>((resolve, reject) => {
    const end = (e?: Error, view?: ServicesTableView) => {
      if (settled) return;
      settled = true;
      void w.terminate();
      if (e) reject(e);
      else resolve(view!);
    };
    cancel = () => end(new StepCancelled('working out the Services was stopped'));
    w.on('message', (m: ServicesMessage) => {
      if (m.type === 'progress') {
        if (!settled) onProgress({ done: m.done, total: m.total, what: m.what });
      } else if (m.type === 'done') end(undefined, m.view);
      // Over the budget is the answer "not evaluated", as budgeted.ts says it on the backend's thread.
      else end(m.overBudget ? new ApiError(m.message, 'failed') : new Error(m.message));
    });
    w.on('error', (e: Error & { code?: string }) => end(new Error(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `working out the Services ran out of memory (more than ${WORKER_HEAP_MB} MB)` : e.message)));
    w.on('exit', (code) => end(new Error(`working out the Services stopped unexpectedly (exit code ${code})`)));
  });
  // The VFP bytes are shared memory: cloned as a reference, never copied.
  w.postMessage(req);
  return { done, cancel: () => cancel() };
}
