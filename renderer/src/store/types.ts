// The app store's shape: nine slices (session, selection, ui, search, walk, findings, notes, diff, paste)
// combined into one zustand store; the Connect to node… dialog has a store of its own (collect.ts).
// Each slice file owns its state and actions, and adds its interface to AppState. Slices never import each other: they read another
// slice's state through get() and may set its fields (starting a walk opens the walk panel, a ui
// field), and reach the backend only through Deps.api, so the unit tests drive them with a fake API
// and no DOM.
import type { StateCreator } from 'zustand';
import type { HnsightApi } from '../../../contract/index.ts';

/**
 * The whole store: every slice adds its own interface to this one where it is declared (`declare module
 * './types.ts'` in each slice file), so this file imports no slice and no slice imports another — the
 * store has no import circle. app-store.ts imports all nine, so all nine are always part of it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the slices (see above)
export interface AppState {}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface Deps {
  api: HnsightApi;
  /** Where the theme choice is remembered (localStorage in the app, a Map in tests). */
  storage?: KeyValueStorage;
  /**
   * What this window had open, kept across a reload of the page (sessionStorage in the app: one per
   * tab, it survives a reload), and the window's id the backend knows it by (attachBundle).
   */
  tabStorage?: KeyValueStorage;
  /** The window's width, for the side panel's default and largest width (absent: 1440). */
  viewportWidth?: () => number;
  /** How long the notes wait after an edit before saving (tests: 0 or flushNotes). */
  notesSaveDelayMs?: number;
  /** How long the paste preview waits for the text to stop changing (tests: 0). */
  pastePreviewDelayMs?: number;
  /** The clock for notes' timestamps (tests fix it). */
  now?: () => string;
}

export type SliceCreator<T> = (deps: Deps) => StateCreator<AppState, [], [], T>;

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
