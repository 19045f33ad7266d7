// Comparing two bundles as a background job: both are loaded, checked and diffed; progress and the
// result go out as 'diff' events.
import { ApiError, type DiffJob, type LoadProgress } from '../../contract/index.ts';
import { loadBundle } from '../bundle/load.ts';
import { BundleOpenError } from '../bundle/source.ts';
import { CHECKS, runChecks } from '../../analysis/checks/index.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';
import { diffModels } from '../../analysis/diff/index.ts';
import type { EventBus } from './event-bus.ts';
import { nextId } from './ids.ts';

const KEEP_FINISHED = 10;

export class DiffJobs {
  private jobs = new Map<string, DiffJob>();

  constructor(private readonly events: EventBus) {}

  start(pathA: string, pathB: string): { jobId: string } {
    const jobId = nextId('diff');
    const empty = (): LoadProgress => ({ phase: 'listing', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 });
    this.jobs.set(jobId, { jobId, state: 'loading', pathA, pathB, progress: { a: empty(), b: empty() } });
    const update = (patch: Partial<DiffJob>, progress = false) => {
      const next = { ...this.jobs.get(jobId)!, ...patch };
      this.jobs.set(jobId, next);
      if (progress) this.events.progress({ type: 'diff', job: next });
      else this.events.emit({ type: 'diff', job: next });
    };
    const side = (which: 'a' | 'b') => (p: LoadProgress) => update({ progress: { ...this.jobs.get(jobId)!.progress, [which]: { ...p } } }, true);
    Promise.all([loadBundle(pathA, { onProgress: side('a') }), loadBundle(pathB, { onProgress: side('b') })])
      .then(([a, b]) => update({ state: 'done', result: diffModels(a, b, { findingsA: runChecks(a, CHECKS, ANALYSIS_BUDGET), findingsB: runChecks(b, CHECKS, ANALYSIS_BUDGET) }) }))
      .catch((e: unknown) => update({ state: 'error', error: e instanceof BundleOpenError ? e.message : `could not compare: ${e instanceof Error ? e.message : String(e)}` }));
    for (const [id, j] of this.jobs) {
      if (this.jobs.size <= KEEP_FINISHED) break;
      if (j.state !== 'loading') {
        this.jobs.delete(id);
        this.events.forget('diff', id);
      }
    }
    return { jobId };
  }

  get(jobId: string): DiffJob {
    const d = this.jobs.get(jobId);
    if (!d) throw new ApiError('hnsight no longer knows this comparison (hnsight was restarted?): compare the bundles again', 'not-found');
    return d;
  }
}
