// The store instance the app uses, over the real backend. Kept apart from index.ts so the unit
// tests import the slices without touching window or the API client.
import { api } from '../api/index.ts';
import { bindStore, createAppStore } from './index.ts';

function safeStorage(kind: 'localStorage' | 'sessionStorage') {
  try {
    return window[kind];
  } catch {
    return undefined; // storage disabled (privacy settings): the theme, the open bundle are just not remembered
  }
}

export const appStore = createAppStore({ api, storage: safeStorage('localStorage'), tabStorage: safeStorage('sessionStorage'), viewportWidth: () => window.innerWidth });
export const useApp = bindStore(appStore);
