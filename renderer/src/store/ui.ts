// UI slice: theme, which view and table are showing, the inspector panel, dialogs, toasts and the
// file excerpt viewer. The theme choice persists; the rest is per session.
import type { FileExcerpt, InventoryTable } from '../../../analysis/view-models/types.ts';
import { errorMessage, type SliceCreator } from './types.ts';
import { clampPanelWidth, defaultPanelWidth, MAX_PANEL, MIN_PANEL, PANEL_OPEN_KEY, PANEL_WIDTH_KEY, storedPanelOpen, storedPanelWidth, widePanelWidth } from './panel-size.ts';

export type ThemePref = 'system' | 'light' | 'dark';
export type ViewKey = 'topology' | 'inventory' | 'files' | 'timeline' | 'reach'
  | 'services';
/** What the right-hand panel shows beside the graph. */
export type PanelKey = 'inspector' | 'walk' | 'findings';

export interface Toast {
  id: number;
  kind: 'error' | 'info' | 'success';
  message: string;
}

export interface ExcerptState {
  file: string;
  line: number;
  loading: boolean;
  data?: FileExcerpt;
  error?: string;
}

export interface UiSlice {
  themePref: ThemePref;
  view: ViewKey;
  inventoryTab: InventoryTable['key'];
  inspectorOpen: boolean;
  panel: PanelKey;
  inspectorWidth: number;
  paletteOpen: boolean;
  openPathOpen: boolean;
  /** The Export… dialog (Ctrl+E, the File menu's Export…, the top bar). */
  exportOpen: boolean;
  /** The keyboard map (?, Help ▸ Keyboard Shortcuts, the top bar). */
  keymapOpen: boolean;
  toasts: Toast[];
  excerpt?: ExcerptState;
  /** Files & issues view: the file expanded to show its issues. */
  expandedFile?: string;
  setThemePref(t: ThemePref): void;
  /** Flips between light and dark from whatever is showing now (the OS theme when 'system'). */
  toggleTheme(systemDark: boolean): void;
  setView(v: ViewKey): void;
  setInventoryTab(k: InventoryTable['key']): void;
  /** Shows or hides the side panel (the panel's hide button, the P key); remembered. */
  setInspectorOpen(open: boolean): void;
  togglePanel(): void;
  /** Shows a panel beside the graph (switching to the topology for the walk and the findings). */
  setPanel(p: PanelKey): void;
  /** The user resized the panel (the splitter): remembered across reloads. */
  setInspectorWidth(px: number): void;
  setPaletteOpen(open: boolean): void;
  setOpenPathOpen(open: boolean): void;
  setExportOpen(open: boolean): void;
  setKeymapOpen(open: boolean): void;
  setExpandedFile(name: string | undefined): void;
  toast(kind: Toast['kind'], message: string): void;
  dismissToast(id: number): void;
  openExcerpt(file: string, line: number): Promise<void>;
  closeExcerpt(): void;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends UiSlice {}
}

export const THEME_KEY = 'hnsight.theme';
export const MIN_INSPECTOR = MIN_PANEL;
export const MAX_INSPECTOR = MAX_PANEL;
const MAX_TOASTS = 4;

export function clampInspectorWidth(px: number): number {
  return clampPanelWidth(px);
}

export function resolveTheme(pref: ThemePref, systemDark: boolean): 'light' | 'dark' {
  return pref === 'system' ? (systemDark ? 'dark' : 'light') : pref;
}

export const createUiSlice: SliceCreator<UiSlice> = (deps) => (set, get) => {
  const stored = deps.storage?.getItem(THEME_KEY);
  let toastSeq = 0;
  const viewport = () => deps.viewportWidth?.() ?? 1440;
  return {
    themePref: stored === 'light' || stored === 'dark' ? stored : 'system',
    view: 'topology',
    inventoryTab: 'endpoints',
    inspectorOpen: storedPanelOpen(deps.storage),
    panel: 'inspector',
    inspectorWidth: clampPanelWidth(storedPanelWidth(deps.storage) ?? defaultPanelWidth(viewport()), viewport()),
    paletteOpen: false,
    openPathOpen: false,
    exportOpen: false,
    keymapOpen: false,
    toasts: [],

    setThemePref(t) {
      deps.storage?.setItem(THEME_KEY, t);
      set({ themePref: t });
    },
    toggleTheme(systemDark) {
      const now = resolveTheme(get().themePref, systemDark);
      get().setThemePref(now === 'dark' ? 'light' : 'dark');
    },
    setView(v) {
      set({ view: v });
    },
    setInventoryTab(k) {
      set({ inventoryTab: k, view: 'inventory' });
    },
    setInspectorOpen(open) {
      deps.storage?.setItem(PANEL_OPEN_KEY, String(open));
      set({ inspectorOpen: open });
    },
    togglePanel() {
      get().setInspectorOpen(!get().inspectorOpen);
    },
    setPanel(p) {
      // The walk needs room for rule names and packet tables (not remembered: the user's own width is).
      const width = p === 'inspector' ? get().inspectorWidth : Math.max(get().inspectorWidth, widePanelWidth(viewport()));
      set({ panel: p, inspectorOpen: true, inspectorWidth: clampPanelWidth(width, viewport()), ...(p === 'inspector' ? {} : { view: 'topology' as const }) });
    },
    setInspectorWidth(px) {
      const w = clampPanelWidth(px, viewport());
      deps.storage?.setItem(PANEL_WIDTH_KEY, String(w));
      set({ inspectorWidth: w });
    },
    setPaletteOpen(open) {
      set({ paletteOpen: open });
    },
    setOpenPathOpen(open) {
      set({ openPathOpen: open });
    },
    setExportOpen(open) {
      set({ exportOpen: open && !!get().bundle });
    },
    setKeymapOpen(open) {
      set({ keymapOpen: open });
    },
    setExpandedFile(name) {
      set({ expandedFile: name });
    },
    toast(kind, message) {
      const t: Toast = { id: ++toastSeq, kind, message };
      set({ toasts: [...get().toasts, t].slice(-MAX_TOASTS) });
    },
    dismissToast(id) {
      set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
    async openExcerpt(file, line) {
      const b = get().bundle;
      if (!b) return;
      set({ excerpt: { file, line, loading: true } });
      try {
        const data = await deps.api.getExcerpt({ bundleId: b.id, file, line, context: 12 });
        if (get().excerpt?.file === file && get().excerpt?.line === line) set({ excerpt: { file, line, loading: false, data } });
      } catch (e) {
        if (get().excerpt?.file === file && get().excerpt?.line === line) set({ excerpt: { file, line, loading: false, error: errorMessage(e) } });
      }
    },
    closeExcerpt() {
      set({ excerpt: undefined });
    },
  };
};
