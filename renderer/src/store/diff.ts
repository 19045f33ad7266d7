// Diff slice: Compare… — two bundle paths (the open bundle's location and another), the backend loads
// both and compares them (openDiff); the 'diff' events bring progress and the result.
import type { DiffJob } from '../../../contract/index.ts';
import { errorMessage, type SliceCreator } from './types.ts';
import { followJob } from '../api/follow-job.ts';

export interface DiffSlice {
  diffOpen: boolean;
  diffJob?: DiffJob;
  diffError?: string;
  /** Opens the Compare… dialog (its form; the last result stays until a new compare starts). */
  openCompare(): void;
  closeCompare(): void;
  startDiff(pathA: string, pathB: string): Promise<void>;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends DiffSlice {}
}

export const createDiffSlice: SliceCreator<DiffSlice> = (deps) => (set, get) => {
  let seq = 0;
  return {
    diffOpen: false,
    openCompare() {
      set({ diffOpen: true });
    },
    closeCompare() {
      seq++;
      set({ diffOpen: false, diffJob: get().diffJob?.state === 'loading' ? undefined : get().diffJob });
    },
    async startDiff(pathA, pathB) {
      const mine = ++seq;
      set({ diffOpen: true, diffError: undefined, diffJob: undefined });
      let jobId: string;
      try {
        jobId = (await deps.api.openDiff({ pathA, pathB })).jobId;
      } catch (e) {
        if (mine === seq) set({ diffError: errorMessage(e) });
        return;
      }
      let st: DiffJob;
      try {
        st = await followJob({
          api: deps.api,
          type: 'diff',
          jobId,
          fetch: () => deps.api.getDiff({ jobId }),
          onState: (j) => set({ diffJob: j }),
          isFinal: (j) => j.state !== 'loading',
          wanted: () => mine === seq,
        });
      } catch (e) {
        if (mine === seq) set({ diffError: `lost track of the comparison: ${errorMessage(e)}` });
        return;
      }
      if (mine === seq && st.state === 'error') set({ diffError: st.error ?? 'the comparison failed' });
    },
  };
};
