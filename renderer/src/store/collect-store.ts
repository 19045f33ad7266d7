// The Connect to node… store the app uses, over the real backend and the app store (opening the
// collected bundle, toasts). Kept apart from collect.ts so the unit tests import the store without
// touching window or the API client.
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { api } from '../api/index.ts';
import { appStore } from './app-store.ts';
import { createCollectStore, type CollectState } from './collect.ts';

export const collectStore = createCollectStore({
  api,
  openBundle: (path) => appStore.getState().open({ path }),
  toast: (kind, message) => appStore.getState().toast(kind, message),
});

export const useCollect = <T,>(selector: (s: CollectState) => T): T => useStore(collectStore, selector);

/** Opens the dialog (Open ▾ → Connect to node…, the File menu's Connect to Node… command). */
export function openConnectDialog(): void {
  collectStore.getState().openDialog();
}

/**
 * The File menu's Connect to Node… (Electron sends 'connect'). Call it after useShortcuts: the preload
 * replays commands that arrived before the page subscribed to its first listener only, and that must
 * stay useShortcuts' (it handles open-path).
 */
export function useConnectCommand(): void {
  useEffect(() => api.onCommand((command) => {
    if (command === 'connect') openConnectDialog();
  }), []);
}
