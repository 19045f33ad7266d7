// Following a background job (a load, a collection, a comparison) to its end: the job events, plus
// one fetch of the current state in case the job moved before we subscribed. Replaces polling.
import type { ApiEvent, ApiEventOf, ApiEventType, HnsightApi } from '../../../contract/index.ts';

export interface FollowOptions<T extends ApiEventType, J = ApiEventOf<T>['job']> {
  api: Pick<HnsightApi, 'subscribe'>;
  type: T;
  jobId: string;
  /** Asks for the job's state now (getJob, getCollectJob, getDiff). */
  fetch: () => Promise<J>;
  /** Called with every state, in order, the last one being the final one. */
  onState: (job: J) => void;
  isFinal: (job: J) => boolean;
  /** True while the caller still wants updates (a newer load makes an older one stop quietly). */
  wanted?: () => boolean;
}

/** Resolves with the final state; rejects when the state cannot be fetched. */
export function followJob<T extends ApiEventType, J = ApiEventOf<T>['job']>(o: FollowOptions<T, J>): Promise<J> {
  return new Promise<J>((resolve, reject) => {
    let done = false;
    // The state is fetched whenever the event channel (re)connects: events sent while it was down
    // are not replayed, and the job may have moved before we subscribed.
    const refetch = () => {
      if (done) return;
      o.fetch().then(take, (e: unknown) => {
        if (done) return;
        done = true;
        off();
        reject(e);
      });
    };
    const off = o.api.subscribe((e: ApiEvent) => {
      if (e.type === o.type && e.job.jobId === o.jobId) take(e.job as unknown as J);
    }, refetch);
    refetch();
    function take(job: J): void {
      if (done) return;
      if (o.wanted && !o.wanted()) {
        // Nobody wants this job any more (a newer load started): settle without telling anyone.
        done = true;
        off();
        resolve(job);
        return;
      }
      o.onState(job);
      if (o.isFinal(job)) {
        done = true;
        off();
        resolve(job);
      }
    }
  });
}
