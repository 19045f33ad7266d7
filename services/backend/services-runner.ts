// Runs the Services table of one node in a worker thread (services-worker-main.ts) and reports how far
// it is, as findings-runner.ts does for the checks (the worker's life, worker-step.ts, is theirs too):
// the backend has one event loop, and the table of a 2,000-Service node held every other request for
// many seconds on it. In a worker it cannot block it, a run that runs out of memory ends the worker,
// not the server, and a run can be stopped.
import { Worker } from 'node:worker_threads';
import { WORKER_LIMITS } from './worker-limits.ts';
import { workerStep } from './worker-step.ts';
import { ApiError } from '../../contract/index.ts';
import type { ServicesTableView } from '../../analysis/view-models/services-table.ts';
import type { StepProgress, StepRun } from './bundle-step-runner.ts';
import { StepCancelled } from './bundle-step-runner.ts';
import type { ServicesMessage, ServicesRequest } from './services-protocol.ts';
import { workerEntry } from '../worker-entry/ensure-bundle.ts';
import { collectNow } from './heap-trim.ts';

/**
 * opts.collect: what runs before the worker starts — one full collection of the server's thread
 * (heap-trim.ts collectNow), as before the reachability worker: the table is asked for after the page
 * walked and inspected, and what those left behind (parsed ports, answers already sent) would
 * otherwise still be resident beside the worker's node (issue #27 point 2).
 */
export function runServices(req: ServicesRequest, onProgress: (p: StepProgress) => void, opts: { workerUrl?: URL; collect?: () => unknown } = {}): StepRun<ServicesTableView> {
  (opts.collect ?? collectNow)();
  const w = new Worker(workerEntry(opts.workerUrl ?? new URL('./services-worker.mjs', import.meta.url)), { resourceLimits: WORKER_LIMITS });
  return workerStep<ServicesMessage, ServicesTableView>(w, req, onProgress, {
    // Over the budget is the answer "not evaluated", as budgeted.ts says it on the backend's thread.
    answer: (m) => (m.type === 'done' ? { value: m.view } : { error: m.overBudget ? new ApiError(m.message, 'failed') : new Error(m.message) }),
    stopped: () => new StepCancelled('working out the Services was stopped'),
    what: 'working out the Services',
  });
}
