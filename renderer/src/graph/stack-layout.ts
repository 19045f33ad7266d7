// Positions for the visible graph: columns left to right (columns.ts), the top-level nodes of each
// stacked in the order column-order.ts (or ELK) chose, open groups sized to their children.
//
// The arrangement of the top level — which sub-column each node is in, in what order, where each
// sub-column starts — is decided once per topology (a LayoutFrame, made from the first visible
// graph) and kept: opening or folding a group then lays out only that group's inside and moves what
// is below it (or right of it, when it got wider), so expanding something never reshuffles the rest
// of the picture. Linear in the visible nodes; pure.
import type { TopoNode } from '../../../analysis/view-models/types.ts';
import type { Box } from './elk-graph.ts';
import type { VisibleGraph } from './visible-graph.ts';
import { collapsedGroupSize, GROUP_GAP, GROUP_HEADER_H, GROUP_PAD, leafSize, NODE_WIDTH } from './sizes.ts';
import { COL_GAP, COLUMN_COUNT, columnOf, columnSplit, ROW_GAP, SUB_GAP } from './columns.ts';

export interface LayoutFrame {
  /** Per column, its sub-columns, each the top-level node ids stacked in it, top to bottom. */
  columns: string[][][];
  /** Where each sub-column starts (centred against the tallest when the frame was made). */
  tops: number[][];
}

/** An open group with more children than this lays them out in a grid of columns. */
const GRID_ABOVE = 8;

type Size = { width: number; height: number };

/** The visible children of each open group, an attached node right after its host. */
function childrenOf(vis: VisibleGraph): Map<string, TopoNode[]> {
  const out = new Map<string, TopoNode[]>();
  for (const n of vis.nodes) if (n.parent && vis.openGroups.has(n.parent)) out.set(n.parent, [...(out.get(n.parent) ?? []), n]);
  for (const [id, list] of out) out.set(id, attachedAfterHosts(list));
  return out;
}

/** Puts each node attached to another right after it (when both are in the list). */
function attachedAfterHosts<T extends Pick<TopoNode, 'id' | 'attachedTo'>>(list: readonly T[]): T[] {
  const ids = new Set(list.map((n) => n.id));
  const after = new Map<string, T[]>();
  for (const n of list) if (n.attachedTo && ids.has(n.attachedTo)) after.set(n.attachedTo, [...(after.get(n.attachedTo) ?? []), n]);
  const out: T[] = [];
  for (const n of list) {
    if (n.attachedTo && ids.has(n.attachedTo)) continue;
    out.push(n);
    out.push(...(after.get(n.id) ?? []));
  }
  return out;
}

/** Sizes every visible node and places the children of open groups (boxes relative to their group). */
function measure(vis: VisibleGraph, boxes: Record<string, Box>): (id: string) => Size {
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  const kids = childrenOf(vis);
  const memo = new Map<string, Size>();
  const size = (id: string, depth = 0): Size => {
    const known = memo.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    let s: Size;
    const inside = kids.get(id);
    if (!vis.openGroups.has(id) || !inside?.length || depth > 16) s = vis.collapsedGroups.has(id) ? collapsedGroupSize() : leafSize(n);
    else {
      const sizes = inside.map((c) => size(c.id, depth + 1));
      const cols = inside.length > GRID_ABOVE ? Math.ceil(Math.sqrt(inside.length / 2.5)) : 1;
      const rows = Math.ceil(inside.length / cols);
      let x = GROUP_PAD;
      let width = 0;
      let height = 0;
      for (let c = 0; c < cols; c++) {
        let y = GROUP_HEADER_H + GROUP_PAD / 2;
        let w = 0;
        for (let r = 0; r < rows; r++) {
          const i = c * rows + r;
          if (i >= inside.length) break;
          boxes[inside[i].id] = { x, y, ...sizes[i] };
          y += sizes[i].height + GROUP_GAP;
          w = Math.max(w, sizes[i].width);
        }
        height = Math.max(height, y - GROUP_GAP);
        x += w + GROUP_GAP;
        width = x - GROUP_GAP;
      }
      s = { width: Math.max(NODE_WIDTH, width) + GROUP_PAD, height: height + GROUP_PAD };
    }
    memo.set(id, s);
    return s;
  };
  return size;
}

const isTop = (vis: VisibleGraph, n: TopoNode) => !(n.parent && vis.openGroups.has(n.parent));

/**
 * The arrangement of the top level, made from a visible graph and the order of each column: the
 * columns are split into sub-columns (`aspect`, the canvas' width : height) of about equal height,
 * each centred against the tallest.
 */
export function makeFrame(vis: VisibleGraph, order: readonly (readonly string[])[], aspect: number): LayoutFrame {
  const size = measure(vis, {});
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  const cols: string[][] = Array.from({ length: COLUMN_COUNT }, () => []);
  const listed = new Set<string>();
  for (const col of order) for (const id of col) {
    const n = byId.get(id);
    if (!n || !isTop(vis, n) || listed.has(id)) continue;
    listed.add(id);
    cols[columnOf(n)].push(id);
  }
  for (const n of vis.nodes) if (isTop(vis, n) && !listed.has(n.id) && !n.attachedTo) cols[columnOf(n)].push(n.id);
  const heights = cols.map((c) => c.map((id) => size(id).height));
  const split = columnSplit(heights, NODE_WIDTH, Math.max(0.2, aspect));
  const columns = cols.map((ids, c) => chunk(ids, heights[c], split[c]));
  const subHeight = (ids: string[]) => ids.reduce((a, id) => a + size(id).height + ROW_GAP, -ROW_GAP);
  // A column's sub-columns start level with each other, the column centred against the tallest.
  const tallest = Math.max(0, ...columns.flat().map(subHeight));
  const tops = columns.map((subs) => {
    const h = Math.max(0, ...subs.map(subHeight));
    return subs.map(() => Math.round((tallest - h) / 2));
  });
  return { columns, tops };
}

/**
 * The same arrangement split for another canvas shape (the side panel opened or closed): the frame's
 * own order, split again for `aspect`; undefined when the split would not change.
 */
export function reshapeFrame(vis: VisibleGraph, frame: LayoutFrame, aspect: number): LayoutFrame | undefined {
  const next = makeFrame(
    vis,
    frame.columns.map((subs) => subs.flat()),
    aspect,
  );
  const same = next.columns.length === frame.columns.length && next.columns.every((subs, c) => subs.length === (frame.columns[c]?.length ?? 0));
  return same ? undefined : next;
}

/** Splits a column into `k` runs of about equal height, keeping the order. */
function chunk(ids: string[], heights: number[], k: number): string[][] {
  if (k <= 1) return ids.length ? [ids] : [];
  const total = heights.reduce((a, b) => a + b + ROW_GAP, 0);
  const out: string[][] = [[]];
  let acc = 0;
  ids.forEach((id, i) => {
    if (acc >= (total / k) * out.length && out.length < k && out[out.length - 1].length) out.push([]);
    out[out.length - 1].push(id);
    acc += heights[i] + ROW_GAP;
  });
  return out;
}

/** Boxes for every visible node (children relative to their group), the top level placed by `frame`. */
export function stackLayout(vis: VisibleGraph, frame: LayoutFrame): Record<string, Box> {
  const boxes: Record<string, Box> = {};
  const size = measure(vis, boxes);
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  const visible = (id: string) => {
    const n = byId.get(id);
    return !!n && isTop(vis, n);
  };
  // The top-level node standing for a node the frame names: itself, or what it is folded into or
  // drawn inside now (a pod's endpoint inside its opened compartment is where the endpoint was).
  const topOf = (id: string): string | undefined => {
    let v = vis.visibleOf.get(id) ?? id;
    for (let d = 0, p = byId.get(v)?.parent; p && vis.openGroups.has(p) && d < 16; d++, p = byId.get(v)?.parent) v = p;
    return visible(v) ? v : undefined;
  };
  // Top-level nodes the frame does not name (an endpoint's port opened outside any compartment, a
  // node new to this graph) go after their host, else at the end of their column.
  const inFrame = new Set(frame.columns.flat(2).map(topOf).filter((id): id is string => !!id));
  const extra = new Map<string, TopoNode[]>();
  const tail: TopoNode[][] = Array.from({ length: COLUMN_COUNT }, () => []);
  for (const n of vis.nodes) {
    if (!isTop(vis, n) || inFrame.has(n.id)) continue;
    if (n.attachedTo && visible(n.attachedTo)) extra.set(n.attachedTo, [...(extra.get(n.attachedTo) ?? []), n]);
    else tail[columnOf(n)].push(n);
  }
  let x = 0;
  for (let c = 0; c < COLUMN_COUNT; c++) {
    const subs = frame.columns[c] ?? [];
    const placed = new Set<string>();
    const lists = subs.map((ids) =>
      ids
        .map(topOf)
        .filter((id): id is string => !!id && !placed.has(id) && !!placed.add(id))
        .flatMap((id) => [byId.get(id)!, ...(extra.get(id) ?? [])]),
    );
    if (tail[c].length) {
      if (lists.length) lists[lists.length - 1].push(...tail[c]);
      else lists.push(tail[c]);
    }
    let any = false;
    lists.forEach((list, s) => {
      if (!list.length) return;
      if (any) x += SUB_GAP;
      any = true;
      let y = frame.tops[c]?.[s] ?? 0;
      let w = NODE_WIDTH;
      for (const n of list) {
        const sz = size(n.id);
        boxes[n.id] = { x, y, ...sz };
        y += sz.height + ROW_GAP;
        w = Math.max(w, sz.width);
      }
      x += w;
    });
    if (any) x += COL_GAP;
  }
  return boxes;
}
