// Where the topology's camera goes, decided without React or the DOM: the first view of a graph
// (all of it, fitted to the canvas), fitting what a walk or a finding lights, following the walk's
// current hop, zooming to the selection, bringing a node focused with the keyboard into view, and
// keeping the view when the canvas is resized. Each returns a CameraMove (or nothing);
// views/topology/useCamera.ts decides when to ask and useCameraMover.ts carries the move out.
//
// Nothing drawn over the canvas may cover what a move brings into view: the toolbar sits above the
// canvas, not on it, and the minimap (bottom right) is drawn only while part of the graph is out of
// view — a fit that leaves part out keeps clear of it. While a walk or a finding is shown the
// minimap is not drawn at all (views/TopologyView.tsx), so their fits and the walk's following use
// the whole canvas.
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import { absoluteBounds, absoluteBox, graphBounds } from './viewport.ts';
import { MIN_READABLE_ZOOM } from './lod.ts';

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

type Vis = Pick<VisibleGraph, 'nodes' | 'openGroups'>;

/** The minimap's size and its distance from the canvas' bottom-right corner (graph.css .minimap). */
export const MINIMAP = { width: 180, height: 120, margin: 10 } as const;
/** Margin around what a fit brings into view, in screen pixels. */
export const FIT_PAD = 16;
/** Around what a walk or a finding lights: its hop numbers and fault markers hang over the nodes'
 *  corners, about this many screen pixels out (graph.css .hop-badge, .fault-marker). */
export const MARK_PAD = 32;
/** A fit never enlarges past this. */
export const MAX_FIT_ZOOM = 1;
/** A walk's path that fits only below the readable zoom (lod.ts) is shown from its current hop at this zoom instead. */
export const WALK_READABLE_ZOOM = 0.5;
/** Where the keyboard takes the camera when the focused node is too small to read. */
export const FOCUS_ZOOM = 0.6;

/**
 * A camera move, and the visible node ids it brings into view (and keeps there when it ends). A
 * move that cannot promise that for a node leaves it out.
 * - viewport: go to this viewport; center: centre this flow point at this zoom; stay: the camera is where it should be.
 */
export type CameraMove =
  | { kind: 'viewport'; viewport: Viewport; duration?: number; shows: string[] }
  | { kind: 'center'; x: number; y: number; zoom: number; duration: number; shows: string[] }
  | { kind: 'stay'; shows: string[] };

/**
 * Where a hop's camera goes: a hop's first node is the port it happens on (the pod itself); the
 * nodes after it are what the hop reached (a DNAT's load balancer and chosen backend), so the
 * camera centres on the first of those.
 */
export function hopFocus(ids: readonly string[]): string {
  return ids.length > 1 ? ids[1] : ids[0];
}

/** The viewport a move ends at. */
export function moveTarget(m: CameraMove, screen: Screen): Viewport | undefined {
  if (m.kind === 'viewport') return m.viewport;
  if (m.kind === 'center') return { x: screen.width / 2 - m.x * m.zoom, y: screen.height / 2 - m.y * m.zoom, zoom: m.zoom };
  return undefined;
}

/** The screen rectangle the minimap covers. */
export function minimapRect(screen: Screen): Box {
  return { x: screen.width - MINIMAP.width - MINIMAP.margin, y: screen.height - MINIMAP.height - MINIMAP.margin, width: MINIMAP.width, height: MINIMAP.height };
}

/** Whether the minimap is drawn at `vp`: the graph is readable there (not its summary) and not wholly in view. */
export function minimapShown(graph: Box | undefined, vp: Viewport, screen: Screen): boolean {
  if (!graph || vp.zoom < MIN_READABLE_ZOOM) return false;
  const sx = graph.x * vp.zoom + vp.x;
  const sy = graph.y * vp.zoom + vp.y;
  return sx < -0.5 || sy < -0.5 || sx + graph.width * vp.zoom > screen.width + 0.5 || sy + graph.height * vp.zoom > screen.height + 0.5;
}

/** `target` whole and centred in the area {x, y, width, height} of the screen, at most at maxZoom. */
function fitInto(target: Box, area: Box, maxZoom: number, pad = FIT_PAD): Viewport {
  const zoom = Math.min(maxZoom, (area.width - 2 * pad) / Math.max(1, target.width), (area.height - 2 * pad) / Math.max(1, target.height));
  const z = Math.max(0.005, zoom);
  return { x: area.x + area.width / 2 - (target.x + target.width / 2) * z, y: area.y + area.height / 2 - (target.y + target.height / 2) * z, zoom: z };
}

/**
 * The viewport showing `target` whole, at most at maxZoom. When that view leaves part of the graph
 * out (so the minimap is drawn), `target` is fitted beside or above the minimap, whichever keeps it larger.
 */
export function fitViewport(target: Box, graph: Box | undefined, screen: Screen, maxZoom = MAX_FIT_ZOOM, pad = FIT_PAD): Viewport {
  const whole = { x: 0, y: 0, ...screen };
  const vp = fitInto(target, whole, maxZoom, pad);
  if (!minimapShown(graph, vp, screen)) return vp;
  const m = minimapRect(screen);
  const above = fitInto(target, { x: 0, y: 0, width: screen.width, height: m.y - MINIMAP.margin }, maxZoom, pad);
  const beside = fitInto(target, { x: 0, y: 0, width: m.x - MINIMAP.margin, height: screen.height }, maxZoom, pad);
  return above.zoom >= beside.zoom ? above : beside;
}

function centerOn(b: Box, zoom: number, duration: number, id: string): CameraMove {
  return { kind: 'center', x: b.x + b.width / 2, y: b.y + b.height / 2, zoom, duration, shows: [id] };
}

/**
 * Brings `ids` (every node of a walk's hops, a finding's objects) into view, at most at `maxZoom`,
 * on the whole canvas: the minimap is not drawn while a walk or a finding is shown. When they only
 * fit below the readable zoom (where the graph turns into its summary) and a `focus` (the walk's
 * current hop) is given, the camera centres that hop at a readable zoom instead (and then follows
 * the hops as the user steps).
 */
export function fitMove(boxes: Record<string, Box>, vis: Vis, ids: readonly string[], screen: Screen, maxZoom: number, focus: readonly string[] = []): CameraMove | undefined {
  const b = absoluteBounds(boxes, vis, ids);
  if (!b) return undefined;
  const vp = fitViewport(b, undefined, screen, maxZoom, MARK_PAD);
  if (vp.zoom < MIN_READABLE_ZOOM && focus.length) {
    const id = hopFocus(focus);
    const f = absoluteBox(boxes, vis, id);
    if (f) return centerOn(f, WALK_READABLE_ZOOM, 350, id);
  }
  return { kind: 'viewport', viewport: vp, duration: 350, shows: ids.filter((id) => boxes[id]) };
}

/** The first view of a graph, and the Fit command: all of it, centred, at most at zoom 1. Below the
 *  readable zoom that is the summary layer (lod.ts), which is how a big node reads whole; its cards
 *  take `cardRoom(viewport)` screen pixels along the canvas' top (summary.ts cardLayout), and the
 *  graph is fitted below them. */
export function placeMove(boxes: Record<string, Box>, vis: Vis, screen: Screen, duration?: number, cardRoom?: (vp: Viewport) => number): CameraMove | undefined {
  const g = graphBounds(boxes, vis);
  if (!g) return undefined;
  const shows = vis.nodes.filter((n) => boxes[n.id]).map((n) => n.id);
  let vp = fitViewport(g, g, screen);
  if (vp.zoom < MIN_READABLE_ZOOM && cardRoom) {
    // Twice: the cards' rows depend on where the columns land.
    for (let i = 0; i < 2; i++) {
      const top = Math.min(screen.height / 2, cardRoom(vp));
      vp = fitInto(g, { x: 0, y: top, width: screen.width, height: screen.height - top }, MAX_FIT_ZOOM, FIT_PAD);
    }
  }
  return { kind: 'viewport', viewport: vp, ...(duration ? { duration } : {}), shows };
}

/** Whether a node lies wholly on the canvas, clear of the minimap when it is drawn (never during a
 *  walk: `minimap` false); a node without a box counts as in view. */
export function onScreen(boxes: Record<string, Box>, vis: Vis, id: string, vp: Viewport, screen: Screen, minimap = true): boolean {
  const b = absoluteBox(boxes, vis, id);
  if (!b) return true;
  const sx = b.x * vp.zoom + vp.x;
  const sy = b.y * vp.zoom + vp.y;
  const ex = sx + b.width * vp.zoom;
  const ey = sy + b.height * vp.zoom;
  if (sx < 0 || sy < 0 || ex > screen.width || ey > screen.height) return false;
  if (!minimap || !minimapShown(graphBounds(boxes, vis), vp, screen)) return true;
  const m = minimapRect(screen);
  return ex <= m.x || ey <= m.y;
}

/** Stepping through a walk (no minimap drawn): stay while the current hop is on screen, else centre its focus at the same zoom. */
export function followMove(boxes: Record<string, Box>, vis: Vis, current: readonly string[], vp: Viewport, screen: Screen): CameraMove | undefined {
  if (!current.length) return undefined;
  if (current.every((id) => onScreen(boxes, vis, id, vp, screen, false))) return { kind: 'stay', shows: current.filter((id) => boxes[id]) };
  const id = hopFocus(current);
  const b = absoluteBox(boxes, vis, id);
  return b ? centerOn(b, Math.max(vp.zoom, WALK_READABLE_ZOOM), 300, id) : undefined;
}

/** Zooming to a selected node (search, inventory, links): centred, at least at 0.9. Computed from the
 *  layout: with onlyRenderVisibleElements an off-screen node has never been measured. */
export function focusMove(boxes: Record<string, Box>, vis: Vis, id: string, zoom: number): CameraMove | undefined {
  const b = absoluteBox(boxes, vis, id);
  return b ? centerOn(b, Math.max(zoom, 0.9), 400, id) : undefined;
}

/** A node focused with the keyboard: stay when it is wholly in view and readable, else centre it, readable. */
export function revealMove(boxes: Record<string, Box>, vis: Vis, id: string, vp: Viewport, screen: Screen): CameraMove | undefined {
  const b = absoluteBox(boxes, vis, id);
  if (!b) return undefined;
  if (vp.zoom >= MIN_READABLE_ZOOM && onScreen(boxes, vis, id, vp, screen)) return { kind: 'stay', shows: [id] };
  return centerOn(b, Math.max(vp.zoom, FOCUS_ZOOM), 250, id);
}

/** Into a part of the graph (a column of the summary layer): its width fitted at a readable zoom,
 *  from its top when it is taller than the screen. */
export function zoomIntoMove(box: Box, screen: Screen): CameraMove {
  const fit = Math.min((screen.width - 2 * FIT_PAD) / Math.max(1, box.width), (screen.height - 2 * FIT_PAD) / Math.max(1, box.height));
  const zoom = Math.min(MAX_FIT_ZOOM, Math.max(FOCUS_ZOOM, fit));
  const x = screen.width / 2 - (box.x + box.width / 2) * zoom;
  const y = box.height * zoom <= screen.height - 2 * FIT_PAD ? screen.height / 2 - (box.y + box.height / 2) * zoom : FIT_PAD - box.y * zoom;
  return { kind: 'viewport', viewport: { x, y, zoom }, duration: 300, shows: [] };
}

/** The canvas changed size (a side panel opened or closed): the same centre at the same zoom. */
export function keepCentreMove(vp: Viewport, before: Screen, after: Screen): CameraMove {
  return { kind: 'viewport', viewport: { x: vp.x + (after.width - before.width) / 2, y: vp.y + (after.height - before.height) / 2, zoom: vp.zoom }, shows: [] };
}
