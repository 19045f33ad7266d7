// Loading bundles as background jobs: each job's state is what getJob answers and what the 'load'
// events carry; a finished load adds its bundle to the open bundles.
import { ApiError, type LoadJob } from '../../contract/index.ts';
import { loadOrigin, LoadCancelled } from '../bundle/load.ts';
import { diskOrigin, originLocation, type BundleOrigin } from '../bundle/origin.ts';
import { BundleOpenError } from '../bundle/source.ts';
import { buildSummary } from '../../analysis/view-models/summary.ts';
import type { EventBus } from './event-bus.ts';
import type { OpenBundles } from './open-bundles.ts';
import type { RecentStore } from '../recent.ts';
import { nextId } from './ids.ts';

const KEEP_FINISHED = 50;

interface Job {
  state: LoadJob;
  abort: AbortController;
  done: Promise<LoadJob>;
}

export class LoadJobs {
  private jobs = new Map<string, Job>();

  constructor(
    private readonly bundles: OpenBundles,
    private readonly events: EventBus,
    private readonly recent: RecentStore,
  ) {}

  /**
   * Starts loading in the background; progress and the end go out as 'load' events. A path is a
   * bundle on disk; an origin may hold pasted texts too (those are never in the recent list: they
   * cannot be opened again from it).
   */
  start(from: string | BundleOrigin, opts: { remember?: boolean } = {}): { jobId: string } {
    const origin = typeof from === 'string' ? diskOrigin(from) : from;
    const location = originLocation(origin);
    const remember = opts.remember !== false && !origin.pastes.length && !!origin.path;
    const jobId = nextId('job');
    const abort = new AbortController();
    const state: LoadJob = { jobId, state: 'loading', location, progress: { phase: 'listing', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 } };
    const job: Job = { state, abort, done: Promise.resolve(state) };
    this.jobs.set(jobId, job);
    const update = (next: LoadJob, progress = false) => {
      job.state = next;
      if (progress) this.events.progress({ type: 'load', job: next });
      else this.events.emit({ type: 'load', job: next });
    };
    const t0 = performance.now();
    job.done = loadOrigin(origin, { signal: abort.signal, onProgress: (p) => update({ ...job.state, progress: { ...p } }, true) })
      .then(async (model) => {
        const bundleId = nextId('b');
        const summary = buildSummary(model, bundleId, performance.now() - t0);
        this.bundles.add(bundleId, model, summary, origin);
        if (remember) await this.recent.add({ path: origin.path!, hostName: summary.hostName, openedAt: new Date().toISOString() }).catch(() => undefined);
        update({ ...job.state, state: 'done', summary });
        return job.state;
      })
      .catch((e: unknown) => {
        update({
          ...job.state,
          state: e instanceof LoadCancelled ? 'cancelled' : 'error',
          error: e instanceof BundleOpenError || e instanceof LoadCancelled ? e.message : `could not load ${location}: ${e instanceof Error ? e.message : String(e)}`,
        });
        return job.state;
      });
    // Old finished jobs are forgotten so a long session does not grow without bound.
    for (const [id, j] of this.jobs) {
      if (this.jobs.size <= KEEP_FINISHED) break;
      if (j.state.state !== 'loading') {
        this.jobs.delete(id);
        this.events.forget('load', id);
      }
    }
    return { jobId };
  }

  get(jobId: string): LoadJob {
    return this.job(jobId).state;
  }

  cancel(jobId: string): void {
    this.job(jobId).abort.abort();
  }

  /** Resolves with the job's final state (CLI, tests). */
  waitFor(jobId: string): Promise<LoadJob> {
    return this.job(jobId).done;
  }

  private job(jobId: string): Job {
    const j = this.jobs.get(jobId);
    if (!j) throw new ApiError('hnsight no longer knows this load (it ended long ago, or hnsight was restarted): open the bundle again', 'not-found');
    return j;
  }
}
