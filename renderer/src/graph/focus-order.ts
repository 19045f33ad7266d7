// The order Tab walks the graph's nodes in: column by column, top to bottom, a group's children right
// after the group. React Flow draws only the nodes on screen, so the browser's own Tab order would
// stop at the canvas' edge; the graph moves the focus itself, in this order, and brings the next node
// into view (views/topology/useGraphKeys.ts). Pure.
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import { absoluteBox } from './viewport.ts';

export function focusOrder(boxes: Record<string, Box>, vis: Pick<VisibleGraph, 'nodes' | 'openGroups'>): string[] {
  const kids = new Map<string | undefined, { id: string; i: number; b: Box }[]>();
  vis.nodes.forEach((n, i) => {
    const b = absoluteBox(boxes, vis, n.id);
    if (!b) return;
    const parent = n.parent && vis.openGroups.has(n.parent) ? n.parent : undefined;
    kids.set(parent, [...(kids.get(parent) ?? []), { id: n.id, i, b }]);
  });
  const out: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    // Reading order: column by column (x rounded, so a column's nodes tie), then top to bottom.
    const list = [...(kids.get(parent) ?? [])].sort((a, b) => Math.round(a.b.x / 40) - Math.round(b.b.x / 40) || a.b.y - b.b.y || a.i - b.i);
    for (const k of list) {
      out.push(k.id);
      if (depth < 16) walk(k.id, depth + 1);
    }
  };
  walk(undefined, 0);
  return out;
}

/** The node after (or before) `current`; undefined past either end (the focus then leaves the graph). */
export function nextInOrder(order: readonly string[], current: string | undefined, back: boolean): string | undefined {
  if (!order.length) return undefined;
  const i = current === undefined ? -1 : order.indexOf(current);
  if (i < 0) return back ? order[order.length - 1] : order[0];
  const j = back ? i - 1 : i + 1;
  return j >= 0 && j < order.length ? order[j] : undefined;
}
