// Loading bundles as background jobs: each job's state is what getJob answers and what the 'load'
// events carry; a finished load adds its bundle to the open bundles. One bundle is loaded once per
// server: a job for files already open ends at once with that node, and a job for files being loaded
// follows that load (bundle-identity.ts says when two opens are the same files). Each caller keeps a
// job of its own; cancelling one stops the load only when no other job still waits for it.
import { ApiError, type LoadJob } from '../../contract/index.ts';
import { loadOrigin, LoadCancelled } from '../bundle/load.ts';
import { diskOrigin, originLocation, type BundleOrigin } from '../bundle/origin.ts';
import { BundleOpenError } from '../bundle/source.ts';
import { collectHandOver } from './revive-node.ts';
import { buildSummary } from '../../analysis/view-models/summary.ts';
import type { EventBus } from './event-bus.ts';
import type { OpenBundles } from './open-bundles.ts';
import type { RecentStore } from '../recent.ts';
import { nextId } from './ids.ts';
import { bundleIdentity } from './bundle-identity.ts';

const KEEP_FINISHED = 50;

interface Job {
  state: LoadJob;
  /** The load it follows (absent before the identity is known and once it ended). */
  load?: Load;
  done: Promise<LoadJob>;
  settle: (s: LoadJob) => void;
}

/** One run of loadOrigin, shared by every job that asked for the same files while it ran. */
interface Load {
  identity?: string;
  abort: AbortController;
  followers: Set<Job>;
  progress: LoadJob['progress'];
}

export class LoadJobs {
  private jobs = new Map<string, Job>();
  /** Loads running, by identity. */
  private running = new Map<string, Load>();

  constructor(
    private readonly bundles: OpenBundles,
    private readonly events: EventBus,
    private readonly recent: RecentStore,
  ) {}

  /**
   * Starts loading in the background; progress and the end go out as 'load' events. A path is a
   * bundle on disk; an origin may hold pasted texts too (those are never in the recent list: they
   * cannot be opened again from it, and they are never shared: each paste is loaded).
   */
  start(from: string | BundleOrigin, opts: { remember?: boolean } = {}): { jobId: string } {
    const origin = typeof from === 'string' ? diskOrigin(from) : from;
    const location = originLocation(origin);
    const remember = opts.remember !== false && !origin.pastes.length && !!origin.path;
    const jobId = nextId('job');
    let settle: (s: LoadJob) => void = () => undefined;
    const done = new Promise<LoadJob>((r) => (settle = r));
    const job: Job = { state: { jobId, state: 'loading', location, progress: { phase: 'listing', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 } }, done, settle };
    this.jobs.set(jobId, job);
    void this.begin(job, origin, remember);
    this.forgetOld();
    return { jobId };
  }

  get(jobId: string): LoadJob {
    return this.job(jobId).state;
  }

  /** The loads running now (listOpen: a reloaded window follows its load instead of starting one). */
  loading(): LoadJob[] {
    return [...this.jobs.values()].filter((j) => j.state.state === 'loading').map((j) => j.state);
  }

  cancel(jobId: string): void {
    const job = this.job(jobId);
    if (job.state.state !== 'loading') return;
    const load = job.load;
    this.end(job, { ...job.state, state: 'cancelled', error: 'loading was cancelled' });
    if (load && !load.followers.size) {
      // Nobody waits for it any more; a new open of these files starts afresh.
      if (load.identity) this.running.delete(load.identity);
      load.abort.abort();
    }
  }

  /** Resolves with the job's final state (CLI, tests). */
  waitFor(jobId: string): Promise<LoadJob> {
    return this.job(jobId).done;
  }

  private async begin(job: Job, origin: BundleOrigin, remember: boolean): Promise<void> {
    const identity = !origin.pastes.length && origin.path ? await bundleIdentity(origin.path) : undefined;
    if (job.state.state !== 'loading') return; // cancelled meanwhile
    if (identity) {
      const open = this.bundles.byIdentity(identity);
      if (open) {
        if (remember) await this.remember(origin, open.summary.hostName);
        this.end(job, { ...job.state, state: 'done', progress: { ...job.state.progress, phase: 'done' }, summary: open.summary });
        return;
      }
      const load = this.running.get(identity);
      if (load) {
        this.follow(job, load);
        return;
      }
    }
    const load: Load = { identity, abort: new AbortController(), followers: new Set(), progress: job.state.progress };
    if (identity) this.running.set(identity, load);
    this.follow(job, load);
    const handOver = collectHandOver();
    const t0 = performance.now();
    try {
      const model = await loadOrigin(origin, {
        signal: load.abort.signal,
        onProgress: (p) => {
          load.progress = { ...p };
          for (const f of load.followers) this.update(f, { ...f.state, progress: load.progress }, true);
        },
        // The workers take these over instead of parsing the files again (revive-node.ts).
        onParsed: handOver.onParsed,
        onBigParsed: handOver.onBigParsed,
      });
      const bundleId = nextId('b');
      const summary = buildSummary(model, bundleId, performance.now() - t0);
      const first = [...load.followers][0];
      this.bundles.add(bundleId, model, summary, origin, { identity, reuse: handOver.files, jobId: first?.state.jobId });
      if (identity) this.running.delete(identity);
      if (remember) await this.remember(origin, summary.hostName);
      for (const f of [...load.followers]) this.end(f, { ...f.state, state: 'done', summary });
    } catch (e: unknown) {
      if (identity && this.running.get(identity) === load) this.running.delete(identity);
      const location = originLocation(origin);
      // Nothing was opened from it: an upload it came from can go (unless an open bundle still uses it).
      this.bundles.releaseLocation(location);
      const error = e instanceof BundleOpenError || e instanceof LoadCancelled ? e.message : `could not load ${location}: ${e instanceof Error ? e.message : String(e)}`;
      for (const f of [...load.followers]) this.end(f, { ...f.state, state: e instanceof LoadCancelled ? 'cancelled' : 'error', error });
    }
  }

  private follow(job: Job, load: Load): void {
    job.load = load;
    load.followers.add(job);
    this.update(job, { ...job.state, progress: load.progress }, true);
  }

  private async remember(origin: BundleOrigin, hostName: string | undefined): Promise<void> {
    await this.recent.add({ path: origin.path!, hostName, openedAt: new Date().toISOString() }).catch(() => undefined);
  }

  private update(job: Job, next: LoadJob, progress = false): void {
    job.state = next;
    if (progress) this.events.progress({ type: 'load', job: next });
    else this.events.emit({ type: 'load', job: next });
  }

  private end(job: Job, final: LoadJob): void {
    job.load?.followers.delete(job);
    job.load = undefined;
    this.update(job, final);
    job.settle(final);
  }

  /** Old finished jobs are forgotten so a long session does not grow without bound (not the one that opened a bundle still open). */
  private forgetOld(): void {
    const keep = new Set(this.bundles.list().map((b) => b.jobId));
    for (const [id, j] of this.jobs) {
      if (this.jobs.size <= KEEP_FINISHED) break;
      if (j.state.state !== 'loading' && !keep.has(id)) {
        this.jobs.delete(id);
        this.events.forget('load', id);
      }
    }
  }

  private job(jobId: string): Job {
    const j = this.jobs.get(jobId);
    if (!j) throw new ApiError('hnsight no longer knows this load (it ended long ago, or hnsight was restarted): open the bundle again', 'not-found');
    return j;
  }
}
