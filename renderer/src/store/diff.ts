// Diff slice: Compare… — two bundle paths (the open bundle's location and another), the backend loads
// both and compares them (openDiff), the renderer polls getDiff for progress and the result.
import type { DiffJobState } from '../../../contract/api.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface DiffSlice {
  diffOpen: boolean;
  diffJob?: DiffJobState;
  diffError?: string;
  /** Opens the Compare view (its form; the last result stays until a new compare starts). */
  openCompare(): void;
  closeCompare(): void;
  startDiff(pathA: string, pathB: string): Promise<void>;
}

const POLL_MS = 150;

export const createDiffSlice: SliceCreator<DiffSlice> = (deps) => (set, get) => {
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
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
      for (;;) {
        if (mine !== seq) return;
        let st: DiffJobState;
        try {
          st = await deps.api.getDiff({ jobId });
        } catch (e) {
          if (mine === seq) set({ diffError: `lost track of the comparison: ${errorMessage(e)}` });
          return;
        }
        if (mine !== seq) return;
        set({ diffJob: st });
        if (st.state === 'error') {
          set({ diffError: st.error ?? 'the comparison failed' });
          return;
        }
        if (st.state === 'done') return;
        await sleep(POLL_MS);
      }
    },
  };
};
