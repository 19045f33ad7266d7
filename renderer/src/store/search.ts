// Search slice: the command palette's query and hits. Responses that arrive after a newer query
// was sent are dropped, so fast typing never shows stale hits. Debouncing is the palette's job.
import type { SearchHit } from '../../../analysis/view-models/types.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface SearchSlice {
  query: string;
  hits: SearchHit[];
  /** The query the hits answer (may lag `query` while typing). */
  hitsFor: string;
  searching: boolean;
  searchError?: string;
  activeIndex: number;
  setQuery(q: string): void;
  runSearch(q: string): Promise<void>;
  moveActive(delta: number): void;
  setActive(i: number): void;
  resetSearch(): void;
}

export const SEARCH_LIMIT = 60;

export const createSearchSlice: SliceCreator<SearchSlice> = (deps) => (set, get) => {
  let seq = 0;
  return {
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
      set({ query: '', hits: [], hitsFor: '', searching: false, searchError: undefined, activeIndex: 0 });
    },
  };
};
