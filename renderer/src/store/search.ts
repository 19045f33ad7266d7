// Search slice: the command palette's query and hits. Responses that arrive after a newer query
// was sent are dropped, so fast typing never shows stale hits. Debouncing is the palette's job. The
// backend builds each bundle's search index once, after its load: its step (what is being indexed,
// how far, or why it failed) is followed so the palette can say it while a search waits for it.
import type { SearchHit } from '../../../analysis/view-models/types.ts';
import type { BundleStep } from '../../../contract/index.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface SearchSlice {
  query: string;
  hits: SearchHit[];
  /** The query the hits answer (may lag `query` while typing). */
  hitsFor: string;
  searching: boolean;
  searchError?: string;
  /** The backend's search index step for the open bundle. */
  searchStep?: BundleStep;
  activeIndex: number;
  /** Follows the search index step of the open bundle (until the bundle changes). */
  followSearchIndex(): void;
  /** Builds the search index again after it failed (the backend runs a failed step again when asked). */
  retrySearchIndex(): Promise<void>;
  setQuery(q: string): void;
  runSearch(q: string): Promise<void>;
  moveActive(delta: number): void;
  setActive(i: number): void;
  resetSearch(): void;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends SearchSlice {}
}

export const SEARCH_LIMIT = 60;

export const createSearchSlice: SliceCreator<SearchSlice> = (deps) => (set, get) => {
  let seq = 0;
  let stopFollowing: (() => void) | undefined;
  return {
    followSearchIndex() {
      stopFollowing?.();
      const b = get().bundle;
      if (!b) return;
      const stepId = `${b.id}:search`;
      const take = (step: BundleStep) => {
        if (get().bundle?.id !== b.id) return;
        set({ searchStep: step });
        // A built index stays built: nothing more to follow (a failed one runs again and is followed).
        if (step.state === 'done') {
          stopFollowing?.();
          stopFollowing = undefined;
        }
      };
      stopFollowing = deps.api.subscribe(
        (e) => {
          if (e.type === 'step' && e.job.jobId === stepId) take(e.job);
        },
        () => void deps.api.getStep({ bundleId: b.id, step: 'search' }).then(take, () => undefined),
      );
      void deps.api.getStep({ bundleId: b.id, step: 'search' }).then(take, () => undefined);
    },

    query: '',
    hits: [],
    hitsFor: '',
    searching: false,
    activeIndex: 0,

    setQuery(q) {
      set({ query: q });
    },

    async runSearch(q) {
      const b = get().bundle;
      const mine = ++seq;
      const query = q.trim();
      if (!b || !query) {
        set({ hits: [], hitsFor: query, searching: false, searchError: undefined, activeIndex: 0 });
        return;
      }
      set({ searching: true });
      try {
        const hits = await deps.api.search({ bundleId: b.id, query, limit: SEARCH_LIMIT });
        if (mine !== seq) return;
        set({ hits, hitsFor: query, searching: false, searchError: undefined, activeIndex: 0 });
      } catch (e) {
        if (mine !== seq) return;
        set({ hits: [], hitsFor: query, searching: false, searchError: errorMessage(e), activeIndex: 0 });
      }
    },

    async retrySearchIndex() {
      const b = get().bundle;
      if (!b) return;
      if (get().query.trim()) return get().runSearch(get().query);
      // An empty query finds nothing but still needs the index: asking builds it again.
      await deps.api.search({ bundleId: b.id, query: '', limit: 1 }).catch(() => undefined);
    },

    moveActive(delta) {
      const n = get().hits.length;
      if (!n) return;
      set({ activeIndex: (get().activeIndex + delta + n) % n });
    },

    setActive(i) {
      set({ activeIndex: i });
    },

    resetSearch() {
      seq++;
      stopFollowing?.();
      stopFollowing = undefined;
      set({ query: '', hits: [], hitsFor: '', searching: false, searchError: undefined, searchStep: undefined, activeIndex: 0 });
    },
  };
};
