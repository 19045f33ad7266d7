// The app's one store, built from its slices. createAppStore takes its dependencies so tests can
// build one over a fake API; the app builds one over the real API (store/app-store.ts).
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { createSessionSlice } from './session.ts';
import { createSelectionSlice } from './selection.ts';
import { createUiSlice } from './ui.ts';
import { createSearchSlice } from './search.ts';
import { createWalkSlice } from './walk.ts';
import { createFindingsSlice } from './findings.ts';
import { createNotesSlice } from './notes.ts';
import { createDiffSlice } from './diff.ts';
import { createPasteSlice } from './paste.ts';
import type { AppState, Deps } from './types.ts';

export type { AppState, Deps } from './types.ts';

export function createAppStore(deps: Deps): StoreApi<AppState> {
  return createStore<AppState>()((...a) => ({
    ...createSessionSlice(deps)(...a),
    ...createSelectionSlice(deps)(...a),
    ...createUiSlice(deps)(...a),
    ...createSearchSlice(deps)(...a),
    ...createWalkSlice(deps)(...a),
    ...createFindingsSlice(deps)(...a),
    ...createNotesSlice(deps)(...a),
    ...createDiffSlice(deps)(...a),
    ...createPasteSlice(deps)(...a),
  }));
}

export function bindStore(store: StoreApi<AppState>) {
  return <T,>(selector: (s: AppState) => T): T => useStore(store, selector);
}
