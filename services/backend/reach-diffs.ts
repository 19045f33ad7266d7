// The reachability part of Compare: per comparison (a DiffJob), a worker (reach-diff-worker-main.ts)
// that reads both bundles, lists the packet classes whose outcome changed (progress as 'step' events,
// step 'reach-diff', a Cancel that keeps what is compared) and then walks a change's example on either
// side. The workers of the last two comparisons are kept (their walks); older ones end.
import { Worker } from 'node:worker_threads';
import { WALK_WORKER_LIMITS, WORKER_HEAP_MB } from './worker-limits.ts';
import { ApiError, type BundleStep } from '../../contract/index.ts';
import type { ReachDiffView } from '../../analysis/view-models/reach-diff-view.ts';
import type { Flow, WalkResult } from '../../analysis/walk/types.ts';
import type { EventBus } from './event-bus.ts';
import type { ReachDiffIn, ReachDiffOut } from './reach-diff-protocol.ts';
import { workerEntry } from '../worker-entry/ensure-bundle.ts';

const KEEP = 2;

interface Run {
  worker: Worker;
  step: BundleStep;
  done: Promise<ReachDiffView>;
  walks: Map<number, { resolve(w: WalkResult): void; reject(e: Error): void }>;
  ended: boolean;
  closing?: boolean;
}

export class ReachDiffs {
  private runs = new Map<string, Run>();
  private seq = 0;

  constructor(
    private readonly events: EventBus | undefined,
    private readonly opts: { maxMs: number; workerUrl?: URL },
  ) {}

  state(jobId: string): BundleStep {
    return this.runs.get(jobId)?.step ?? { jobId: `${jobId}:reach-diff`, bundleId: jobId, step: 'reach-diff', state: 'waiting' };
  }

  /** The changes between the two bundles of a comparison: the run under way or done, else a new run. */
  get(jobId: string, paths: { pathA: string; pathB: string }): Promise<ReachDiffView> {
    const r = this.runs.get(jobId);
    if (r && !r.ended) return r.done;
    return this.start(jobId, paths).done;
  }

  /** Stops the comparison after the source under way; what is compared is answered. */
  cancel(jobId: string): void {
    this.runs.get(jobId)?.worker.postMessage({ type: 'stop' } satisfies ReachDiffIn);
  }

  /** Walks a packet on one side of a comparison whose reachability was asked for. */
  walk(jobId: string, side: 'a' | 'b', flow: Flow): Promise<WalkResult> {
    const r = this.runs.get(jobId);
    if (!r || r.ended) return Promise.reject(new ApiError('hnsight no longer has these bundles read: compare them again', 'not-found'));
    const id = ++this.seq;
    return new Promise<WalkResult>((resolve, reject) => {
      r.walks.set(id, { resolve, reject });
      r.worker.postMessage({ type: 'walk', id, side, flow } satisfies ReachDiffIn);
    });
  }

  close(): void {
    for (const id of [...this.runs.keys()]) this.end(id);
  }

  private end(jobId: string): void {
    const r = this.runs.get(jobId);
    if (!r) return;
    this.runs.delete(jobId);
    // Its exit ends what waits on it (fail below), with this reason.
    r.closing = true;
    void r.worker.terminate();
  }

  private start(jobId: string, paths: { pathA: string; pathB: string }): Run {
    this.end(jobId);
    const worker = new Worker(workerEntry(this.opts.workerUrl ?? new URL('./reach-diff-worker.mjs', import.meta.url)), { resourceLimits: WALK_WORKER_LIMITS });
    const t0 = performance.now();
    const run: Run = { worker, step: { jobId: `${jobId}:reach-diff`, bundleId: jobId, step: 'reach-diff', state: 'running' }, walks: new Map(), ended: false, done: Promise.resolve() as unknown as Promise<ReachDiffView> };
    const set = (next: BundleStep, progress = false) => {
      run.step = next;
      if (this.events) (progress ? this.events.progress : this.events.emit).call(this.events, { type: 'step', job: next });
    };
    run.done = new Promise<ReachDiffView>((resolve, reject) => {
      const fail = (message: string) => {
        if (run.ended) return;
        run.ended = true;
        if (this.runs.get(jobId) === run) this.runs.delete(jobId);
        void worker.terminate();
        for (const w of run.walks.values()) w.reject(new Error(message));
        set({ ...run.step, state: 'error', progress: undefined, error: message });
        reject(new Error(message));
      };
      worker.on('message', (m: ReachDiffOut) => {
        if (m.type === 'progress') set({ ...run.step, state: 'running', progress: { done: m.done, total: m.total, what: m.what } }, true);
        else if (m.type === 'done') {
          set({ ...run.step, state: 'done', progress: undefined, ms: Math.round(performance.now() - t0) });
          resolve(m.view);
        } else if (m.type === 'walked') {
          const w = run.walks.get(m.id);
          run.walks.delete(m.id);
          if (m.result) w?.resolve(m.result);
          else w?.reject(new Error(m.error ?? 'the walk failed'));
        } else fail(m.message);
      });
      worker.on('error', (e: Error & { code?: string }) => fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the comparison ran out of memory (more than ${WORKER_HEAP_MB} MB)` : e.message));
      worker.on('exit', (code) => fail(run.closing ? 'a newer comparison took its place: compare again' : `the comparison stopped unexpectedly (exit code ${code})`));
    });
    run.done.catch(() => undefined);
    this.runs.set(jobId, run);
    set(run.step);
    worker.postMessage({ type: 'start', ...paths, maxMs: this.opts.maxMs } satisfies ReachDiffIn);
    // The workers of older comparisons end (each holds two nodes).
    while (this.runs.size > KEEP) this.end(this.runs.keys().next().value!);
    return run;
  }
}
