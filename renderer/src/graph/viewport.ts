// Boxes in flow coordinates: layout boxes are relative to their parent group; the camera, the
// summary layer and the keyboard need them absolute. Pure.
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';

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

/** The ids of the visible nodes not drawn inside an open group. */
export function topLevelIds(vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>): string[] {
  return vis.nodes.filter((n) => !n.parent || !vis.openGroups.has(n.parent)).map((n) => n.id);
}

/** The box around the whole drawn graph. */
export function graphBounds(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>): Box | undefined {
  return topLevelBounds(boxes, topLevelIds(vis));
}

/** A node's box in flow coordinates: layout boxes are relative to the parent group. */
export function absoluteBox(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'> | undefined, id: string): Box | undefined {
  const b = boxes[id];
  if (!b || !vis) return undefined;
  const parentOf = parents(vis);
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

const parentMaps = new WeakMap<object, Map<string, string | undefined>>();

/** Each visible node's open parent group, memoized per visible graph (absoluteBox runs per node). */
function parents(vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>): Map<string, string | undefined> {
  let m = parentMaps.get(vis);
  if (!m) {
    m = new Map(vis.nodes.map((n) => [n.id, n.parent && vis.openGroups.has(n.parent) ? n.parent : undefined]));
    parentMaps.set(vis, m);
  }
  return m;
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
