// How wide the side panel is: a default that leaves the graph room at the window's width, the width
// the user dragged or keyed remembered across reloads, and never so wide that the view beside it is
// cramped. Pure, so the unit tests drive it without a window.
import type { KeyValueStorage } from './types.ts';

export const PANEL_WIDTH_KEY = 'hnsight.panelWidth';
export const PANEL_OPEN_KEY = 'hnsight.panelOpen';
export const MIN_PANEL = 300;
export const MAX_PANEL = 900;
/** What the view beside the panel keeps at least (the rail is 184 px of it). */
const VIEW_KEEPS = 640;

/** The largest panel this window allows: the view keeps VIEW_KEEPS, the panel never below MIN_PANEL. */
export function maxPanelWidth(viewport: number): number {
  return Math.max(MIN_PANEL, Math.min(MAX_PANEL, viewport - VIEW_KEEPS));
}

export function clampPanelWidth(px: number, viewport = Number.POSITIVE_INFINITY): number {
  return Math.round(Math.min(maxPanelWidth(viewport), Math.max(MIN_PANEL, px)));
}

/** The inspector's width when the user never chose one: about a quarter of the window (1280 → 340, 1920 → 440). */
export function defaultPanelWidth(viewport: number): number {
  return clampPanelWidth(Math.min(440, viewport * 0.265), viewport);
}

/** The walk and the findings need room for rule names and packet tables: about a third (1280 → 400, 1920 → 480). */
export function widePanelWidth(viewport: number): number {
  return clampPanelWidth(Math.min(480, viewport * 0.31), viewport);
}

/** The width the user last chose, if any and readable. */
export function storedPanelWidth(storage: KeyValueStorage | undefined): number | undefined {
  const v = Number(storage?.getItem(PANEL_WIDTH_KEY));
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/** Whether the user left the panel hidden (absent: shown). */
export function storedPanelOpen(storage: KeyValueStorage | undefined): boolean {
  return storage?.getItem(PANEL_OPEN_KEY) !== 'false';
}
