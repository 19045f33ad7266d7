// The graph's columns, left to right: the node itself (uplink, vSwitch and networks stacked in one
// column), pods and the host's vNICs, load balancers, remote endpoints, remote subnets with their
// next hops stacked. Five columns rather than one per rank (eight): the chains uplink → vSwitch →
// network and subnet → next hop hold a node or two each, and a column apiece made the graph too wide
// to read at 1280×800 beside the side panel. A crowded column is split into sub-columns so the
// graph's shape comes near the canvas' (`columnSplit`). Pure.
import type { TopoNode } from '../../../analysis/view-models/types.ts';

/** Column of each topology rank (analysis/topology RANK: uplink 0 … next hop 7). */
const COLUMN_OF_RANK = [0, 0, 0, 1, 2, 3, 4, 4];
export const COLUMN_COUNT = 5;

export function columnOf(n: Pick<TopoNode, 'rank'>): number {
  const r = Math.max(0, Math.round(n.rank));
  return COLUMN_OF_RANK[Math.min(r, COLUMN_OF_RANK.length - 1)];
}

/** What each column holds, in words (the summary layer's titles). */
export const COLUMN_TITLES = ['This node', 'Pods and host', 'Load balancers', 'Remote endpoints', 'Remote subnets'];

export const COL_GAP = 64;
export const SUB_GAP = 28;
export const ROW_GAP = 10;

/**
 * How many sub-columns each column gets so the whole graph's width : height comes near `aspect`
 * (the canvas'). Tries heights from the tallest column's down to its tallest node, in 4 % steps:
 * at each, every column is split into as many sub-columns as that height needs, and the height
 * whose graph fits the aspect best (the smaller of its width / aspect and its height, largest
 * first) wins. `heights[c]` are the heights of column c's nodes.
 */
export function columnSplit(heights: readonly (readonly number[])[], width: number, aspect: number, maxSplit = 40): number[] {
  const total = heights.map((h) => h.reduce((a, b) => a + b + ROW_GAP, 0));
  const tallest = Math.max(0, ...heights.flat());
  const graphWidth = (s: number[]) => {
    const used = s.filter((k) => k > 0);
    return used.reduce((a, k) => a + k * width + (k - 1) * SUB_GAP, 0) + Math.max(0, used.length - 1) * COL_GAP;
  };
  const at = (target: number) => heights.map((h, c) => (h.length ? Math.min(maxSplit, h.length, Math.max(1, Math.ceil(total[c] / target))) : 0));
  const heightOf = (s: number[]) => Math.max(0, ...s.map((k, c) => (k ? Math.max(tallest, total[c] / k) : 0)));
  const cost = (s: number[]) => Math.max(graphWidth(s) / aspect, heightOf(s));
  let best = at(Math.max(1, ...total));
  for (let target = Math.max(1, ...total); target >= tallest && target > 1; target *= 0.96) {
    const s = at(target);
    if (cost(s) < cost(best)) best = s;
  }
  return best;
}
