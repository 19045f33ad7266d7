// One long step an open bundle takes once (its checks, its search index): run in the background at
// most once at a time, its result kept, its state pushed as 'step' events (contract BundleStep) so the
// window that waits shows what is being done and how far, and a failure said where it happened. A
// failed step runs again the next time its result is asked for: that is the window's Retry.
import { ApiError, type BundleStep } from '../../contract/index.ts';
import type { EventBus } from './event-bus.ts';

export interface StepProgress {
  done: number;
  total: number;
  what?: string;
}

/** One run of a step: its result, and how to stop it (the bundle was closed). */
export interface StepRun<T> {
  done: Promise<T>;
  cancel(): void;
}

function closedError(): ApiError {
  return new ApiError('the node was closed (replaced or let go) while this was being worked out', 'not-found');
}

export class StepCancelled extends Error {
  override name = 'StepCancelled';
}

export class BundleStepRunner<T> {
  private current: BundleStep;
  private running?: { promise: Promise<T>; cancel(): void };
  private value?: { v: T };
  private closed = false;

  constructor(
    bundleId: string,
    step: BundleStep['step'],
    private readonly events: EventBus | undefined,
    private readonly start: (progress: (p: StepProgress) => void) => StepRun<T>,
  ) {
    this.current = { jobId: `${bundleId}:${step}`, bundleId, step, state: 'waiting' };
  }

  get state(): BundleStep {
    return this.current;
  }

  /** The kept result, without waiting or starting a run (undefined until a run has ended well). */
  peek(): T | undefined {
    return this.value?.v;
  }

  /** The result: the kept one, the run under way, or a new run (the first, or after a failure). */
  get(): Promise<T> {
    if (this.value) return Promise.resolve(this.value.v);
    if (this.running) return this.running.promise;
    if (this.closed) return Promise.reject(closedError());
    const t0 = performance.now();
    this.set({ ...this.current, state: 'running', progress: undefined, error: undefined, ms: undefined });
    let run: StepRun<T>;
    try {
      run = this.start((p) => {
        if (this.running && !this.closed) this.set({ ...this.current, progress: { ...p } }, true);
      });
    } catch (e) {
      run = { done: Promise.reject(e), cancel: () => undefined };
    }
    const promise = run.done.then(
      (v) => {
        this.value = { v };
        this.running = undefined;
        this.set({ ...this.current, state: 'done', progress: undefined, ms: Math.round(performance.now() - t0) });
        return v;
      },
      (e: unknown) => {
        this.running = undefined;
        // A run stopped because its node was closed (replaced by a paste, let go by its windows) is
        // no failure of the server: the caller asked about a node that is gone.
        if (this.closed) throw closedError();
        this.set({ ...this.current, state: 'error', progress: undefined, error: e instanceof Error ? e.message : String(e) });
        throw e;
      },
    );
    this.running = { promise, cancel: () => run.cancel() };
    return promise;
  }

  /** Starts the step in the background (nobody waits: a failure is only told by its state). */
  startInBackground(): void {
    this.get().catch(() => undefined);
  }

  /** Stops a run under way (the user's Cancel): its state says it was stopped; asking again runs it again. */
  cancel(): void {
    this.running?.cancel();
  }

  /** The bundle is closed: a run under way stops, nothing runs again. */
  close(): void {
    this.closed = true;
    this.running?.cancel();
  }

  private set(next: BundleStep, progress = false): void {
    this.current = next;
    if (!this.events) return;
    if (progress) this.events.progress({ type: 'step', job: next });
    else this.events.emit({ type: 'step', job: next });
  }
}
