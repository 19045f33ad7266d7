// Selection slice: the object the user is looking at. Selecting fetches its inspector view; a
// request to zoom the graph to it is a counter the topology view watches (so selecting the same
// object twice from search zooms twice). A rule to scroll to travels with the selection.
import type { InspectorView, ObjectRef } from '../../../analysis/view-models/types.ts';
import { refKey } from '../../../analysis/view-models/types.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface RuleFocus {
  name: string;
  line?: number;
}

export interface SelectOptions {
  /** Zoom the graph to the object (search, inventory, links). */
  focusGraph?: boolean;
  rule?: RuleFocus;
  /** Do not push the previous selection on the back stack (going back). */
  noHistory?: boolean;
}

export interface SelectionSlice {
  selected?: ObjectRef;
  inspector?: InspectorView;
  inspectorLoading: boolean;
  inspectorError?: string;
  ruleFocus?: RuleFocus;
  /** Bumped for every request to zoom the graph to the selection. */
  focusSeq: number;
  back: ObjectRef[];
  select(ref: ObjectRef, opts?: SelectOptions): Promise<void>;
  goBack(): void;
  clearSelection(): void;
  resetSelection(): void;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends SelectionSlice {}
}

const MAX_BACK = 50;

export const createSelectionSlice: SliceCreator<SelectionSlice> = (deps) => (set, get) => {
  let seq = 0;
  return {
    inspectorLoading: false,
    focusSeq: 0,
    back: [],

    async select(ref, opts = {}) {
      const b = get().bundle;
      if (!b) return;
      const prev = get().selected;
      const same = prev && refKey(prev) === refKey(ref);
      const back = !opts.noHistory && prev && !same ? [...get().back, prev].slice(-MAX_BACK) : get().back;
      set({
        selected: ref,
        ruleFocus: opts.rule,
        back,
        focusSeq: opts.focusGraph ? get().focusSeq + 1 : get().focusSeq,
        inspectorOpen: true,
      });
      if (same && get().inspector && !get().inspectorError) return;
      const mine = ++seq;
      set({ inspectorLoading: true, inspectorError: undefined });
      try {
        const view = await deps.api.inspect({ bundleId: b.id, ref });
        if (mine !== seq) return;
        set({ inspector: view, inspectorLoading: false });
      } catch (e) {
        if (mine !== seq) return;
        set({ inspector: undefined, inspectorLoading: false, inspectorError: errorMessage(e) });
      }
    },

    goBack() {
      const stack = get().back;
      const prev = stack[stack.length - 1];
      if (!prev) return;
      set({ back: stack.slice(0, -1) });
      void get().select(prev, { noHistory: true, focusGraph: true });
    },

    clearSelection() {
      seq++;
      set({ selected: undefined, inspector: undefined, inspectorLoading: false, inspectorError: undefined, ruleFocus: undefined });
    },

    resetSelection() {
      get().clearSelection();
      set({ back: [] });
    },
  };
};
