// Picks the backend: the Electron preload's bridge when present, otherwise HTTP to `hnsight serve`.
// The rest of the renderer only sees HnsightApi.
import type { HnsightApi } from '../../../contract/index.ts';
import { createHttpApi } from './http-api.ts';

declare global {
  interface Window {
    hnsight?: HnsightApi;
  }
}

export const api: HnsightApi = window.hnsight ?? createHttpApi();
export const isElectron = !!window.hnsight;
