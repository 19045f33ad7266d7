// Where the camera starts. Fitting a 250-pod node whole gives a zoom of a few percent — a grey
// smear. Below a readable zoom, the camera starts at a readable zoom on the left edge, centred on
// the anchor (the uplink, vSwitch and networks), which is where reading the node starts.
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';

/** Below this, fit-all is a smear: start at START_ZOOM on the anchor instead. */
export const READABLE_ZOOM = 0.28;
export const START_ZOOM = 0.5;
const PAD = 24;

export function topLevelBounds(boxes: Record<string, Box>, topIds: Iterable<string>): Box | undefined {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const id of topIds) {
    const b = boxes[id];
    if (!b) continue;
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
  }
  return Number.isFinite(x1) ? { x: x1, y: y1, width: x2 - x1, height: y2 - y1 } : undefined;
}

/** The initial viewport, or undefined when a plain fit-all is readable. */
export function initialViewport(bounds: Box, view: { width: number; height: number }, topInset = 0, anchor?: Box): { x: number; y: number; zoom: number } | undefined {
  const fit = Math.min((view.width - 2 * PAD) / bounds.width, (view.height - topInset - 2 * PAD) / bounds.height);
  if (fit >= READABLE_ZOOM) return undefined;
  const zoom = Math.min(1, Math.max(START_ZOOM, (view.width - 2 * PAD) / bounds.width));
  const x = PAD - bounds.x * zoom;
  if (!anchor) return { x, y: PAD + topInset - bounds.y * zoom, zoom };
  const midY = topInset + (view.height - topInset) / 2;
  // Centre on the anchor, but never scroll above the graph's top edge.
  const y = Math.min(PAD + topInset - bounds.y * zoom, midY - (anchor.y + anchor.height / 2) * zoom);
  return { x, y, zoom };
}

/** A node's box in flow coordinates: layout boxes are relative to the parent group. */
export function absoluteBox(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'> | undefined, id: string): Box | undefined {
  const b = boxes[id];
  if (!b || !vis) return undefined;
  const parentOf = new Map(vis.nodes.map((n) => [n.id, n.parent && vis.openGroups.has(n.parent) ? n.parent : undefined]));
  let x = b.x;
  let y = b.y;
  const seen = new Set([id]);
  for (let p = parentOf.get(id); p && boxes[p] && !seen.has(p); p = parentOf.get(p)) {
    seen.add(p);
    x += boxes[p].x;
    y += boxes[p].y;
  }
  return { x, y, width: b.width, height: b.height };
}

/** The box around several nodes in flow coordinates; undefined when none of them has a box. */
export function absoluteBounds(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'> | undefined, ids: Iterable<string>): Box | undefined {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const id of ids) {
    const b = absoluteBox(boxes, vis, id);
    if (!b) continue;
    x1 = Math.min(x1, b.x);
    y1 = Math.min(y1, b.y);
    x2 = Math.max(x2, b.x + b.width);
    y2 = Math.max(y2, b.y + b.height);
  }
  return Number.isFinite(x1) ? { x: x1, y: y1, width: x2 - x1, height: y2 - y1 } : undefined;
}
