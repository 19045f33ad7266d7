// This window's id for the backend: the client that attaches to a node and holds it (attachBundle).
import type { KeyValueStorage } from './types.ts';

const TAB_KEY = 'hnsight.tab';

/** This window's id (kept across reloads of the page, so a reload is the same window to the backend). */
export function tabId(store: KeyValueStorage | undefined): string {
  let id = store?.getItem(TAB_KEY) ?? undefined;
  if (!id || !/^[A-Za-z0-9_.:-]{1,128}$/.test(id)) {
    id = `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    store?.setItem(TAB_KEY, id);
  }
  return id;
}
