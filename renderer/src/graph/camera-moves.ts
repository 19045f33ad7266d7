// Where the topology's camera goes, decided without React or the DOM: the first view of a graph,
// fitting what a walk or a finding lights, following the walk's current hop, zooming to the
// selection. Each returns a CameraMove (or nothing); views/topology/useCamera.ts decides when to ask
// and useCameraMover.ts carries the move out with React Flow.
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import { absoluteBounds, absoluteBox, initialViewport, topLevelBounds } from './viewport.ts';

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** The canvas' size in screen pixels. */
export interface Screen {
  width: number;
  height: number;
}

/** Room the toolbar takes at the top of the canvas, kept clear when placing the camera. */
export const TOOLBAR_INSET = 56;
/** Below this zoom node labels cannot be read: a walk shows its current hop instead of the whole path. */
export const MIN_READABLE_ZOOM = 0.75;
/** Margin around what a fit brings into view, in screen pixels. */
const FIT_PAD = 60;
/** A fit never zooms out further than this, even when what it fits is then larger than the canvas. */
const MIN_FIT_ZOOM = 0.2;

/**
 * A camera move, and the visible node ids it brings into view (and keeps there when it ends). A
 * move that cannot promise that for a node leaves it out.
 * - viewport: go to this viewport; center: centre this flow point at this zoom; fit-all: fit every
 *   drawn node (React Flow measures them); stay: the camera is where it should be.
 */
export type CameraMove =
  | { kind: 'viewport'; viewport: Viewport; duration?: number; shows: string[] }
  | { kind: 'center'; x: number; y: number; zoom: number; duration: number; shows: string[] }
  | { kind: 'fit-all'; padding: number; duration?: number; shows: string[] }
  | { kind: 'stay'; shows: string[] };

/**
 * Where the camera goes for a hop: a hop's first node is the port it happens on (the pod itself);
 * the nodes after it are what the hop reached (a DNAT's load balancer and chosen backend), so the
 * camera centres on the first of those.
 */
export function hopFocus(ids: readonly string[]): string {
  return ids.length > 1 ? ids[1] : ids[0];
}

/** The viewport a move ends at, when it can be known without React Flow (not for fit-all). */
export function moveTarget(m: CameraMove, screen: Screen): Viewport | undefined {
  if (m.kind === 'viewport') return m.viewport;
  if (m.kind === 'center') return { x: screen.width / 2 - m.x * m.zoom, y: screen.height / 2 - m.y * m.zoom, zoom: m.zoom };
  return undefined;
}

function centerOn(b: Box, zoom: number, duration: number, id: string): CameraMove {
  return { kind: 'center', x: b.x + b.width / 2, y: b.y + b.height / 2, zoom, duration, shows: [id] };
}

/**
 * Brings `ids` into view below the toolbar, at most at `maxZoom`. When they only fit below a
 * readable zoom and a `focus` (the walk's current hop) is given, the camera centres that hop at a
 * readable zoom instead (and then follows the hops as the user steps).
 */
export function fitMove(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>, ids: readonly string[], screen: Screen, maxZoom: number, focus: readonly string[] = []): CameraMove | undefined {
  const b = absoluteBounds(boxes, vis, ids);
  if (!b) return undefined;
  const w = screen.width;
  const h = screen.height - TOOLBAR_INSET;
  const zoom = Math.min(maxZoom, (w - 2 * FIT_PAD) / Math.max(1, b.width), (h - 2 * FIT_PAD) / Math.max(1, b.height));
  if (zoom < MIN_READABLE_ZOOM && focus.length) {
    const id = hopFocus(focus);
    const f = absoluteBox(boxes, vis, id);
    if (f) return centerOn(f, MIN_READABLE_ZOOM, 350, id);
  }
  const z = Math.max(MIN_FIT_ZOOM, zoom);
  const viewport = { x: w / 2 - (b.x + b.width / 2) * z, y: TOOLBAR_INSET + h / 2 - (b.y + b.height / 2) * z, zoom: z };
  // Held at the minimum zoom, the fit no longer holds everything.
  const shows = z > zoom ? [] : ids.filter((id) => boxes[id]);
  return { kind: 'viewport', viewport, duration: 350, shows };
}

/** Whether a node lies wholly on the canvas below the toolbar; a node without a box counts as in view. */
export function onScreen(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>, id: string, vp: Viewport, screen: Screen): boolean {
  const b = absoluteBox(boxes, vis, id);
  if (!b) return true;
  const sx = b.x * vp.zoom + vp.x;
  const sy = b.y * vp.zoom + vp.y;
  return sx >= 0 && sy >= TOOLBAR_INSET && sx + b.width * vp.zoom <= screen.width && sy + b.height * vp.zoom <= screen.height;
}

/** Stepping through a walk: stay while the current hop is on screen, else centre its focus at the same zoom. */
export function followMove(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>, current: readonly string[], vp: Viewport, screen: Screen): CameraMove | undefined {
  if (!current.length) return undefined;
  if (current.every((id) => onScreen(boxes, vis, id, vp, screen))) return { kind: 'stay', shows: current.filter((id) => boxes[id]) };
  const id = hopFocus(current);
  const b = absoluteBox(boxes, vis, id);
  return b ? centerOn(b, vp.zoom, 300, id) : undefined;
}

/** Zooming to a selected node (search, inventory, links): centred, at least at 0.9. Computed from the
 *  layout rather than with fitView({nodes}): with onlyRenderVisibleElements an off-screen node has
 *  never been measured, and fitView skips unmeasured nodes. */
export function focusMove(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>, id: string, zoom: number): CameraMove | undefined {
  const b = absoluteBox(boxes, vis, id);
  return b ? centerOn(b, Math.max(zoom, 0.9), 400, id) : undefined;
}

/** The first view of a graph (see viewport.ts): fit-all when that is readable, else the anchor at a readable zoom. */
export function placeMove(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>, screen: Screen | undefined): CameraMove {
  const top = vis.nodes.filter((n) => !n.parent || !vis.openGroups.has(n.parent));
  const bounds = topLevelBounds(boxes, top.map((n) => n.id));
  const anchor = topLevelBounds(boxes, top.filter((n) => n.rank <= 1).map((n) => n.id));
  const vp = screen && bounds ? initialViewport(bounds, screen, TOOLBAR_INSET, anchor) : undefined;
  return vp ? { kind: 'viewport', viewport: vp, shows: [] } : { kind: 'fit-all', padding: 0.08, shows: [] };
}
