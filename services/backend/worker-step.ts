// One worker thread that answers one request: the shape the checks (findings-runner.ts) and the
// Services table (services-runner.ts) share. The worker reports progress, then one answer or one
// error; it ends when it has answered, when it fails (out of memory: the worker dies, not the server),
// or when the run is stopped. Each runner starts its own Worker (under worker-limits.ts) and says, in
// its words what an answer is and what a stop says, and names the run for the other failures.
import type { Worker } from 'node:worker_threads';
import { WORKER_HEAP_MB } from './worker-limits.ts';
import type { StepProgress, StepRun } from './bundle-step-runner.ts';

/** What every such worker posts besides its answer. */
export interface WorkerProgressMessage {
  type: 'progress';
  done: number;
  total: number;
  what?: string;
}

export interface WorkerStepWords<M, T> {
  /** The answer in a message that is not progress: the value, or the error to reject with. */
  answer(m: Exclude<M, { type: 'progress' }>): { value: T } | { error: Error };
  /** The error `done` rejects with when the run is stopped. */
  stopped(): Error;
  /** The run, as the messages name it ("the checks" ran out of memory, stopped unexpectedly). */
  what: string;
}

/** Posts `req` to `w` (shared memory in it is cloned as a reference, never copied) and follows it to its one answer. */
export function workerStep<M extends { type: string }, T>(w: Worker, req: unknown, onProgress: (p: StepProgress) => void, words: WorkerStepWords<M, T>): StepRun<T> {
  let settled = false;
  let cancel: () => void = () => undefined;
  const done = new Promise<T>((resolve, reject) => {
    const end = (r: { value: T } | { error: Error }) => {
      if (settled) return;
      settled = true;
      void w.terminate();
      if ('error' in r) reject(r.error);
      else resolve(r.value);
    };
    cancel = () => end({ error: words.stopped() });
    w.on('message', (m: M | WorkerProgressMessage) => {
      if (m.type === 'progress') {
        const p = m as WorkerProgressMessage;
        if (!settled) onProgress({ done: p.done, total: p.total, what: p.what });
      } else end(words.answer(m as Exclude<M, { type: 'progress' }>));
    });
    w.on('error', (e: Error & { code?: string }) => end({ error: new Error(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `${words.what} ran out of memory (more than ${WORKER_HEAP_MB} MB)` : e.message) }));
    w.on('exit', (code) => end({ error: new Error(`${words.what} stopped unexpectedly (exit code ${code})`) }));
  });
  w.postMessage(req);
  return { done, cancel: () => cancel() };
}
