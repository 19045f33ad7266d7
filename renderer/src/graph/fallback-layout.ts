// A plain column layout: shown at once while ELK works on a big graph, used alone above
// ELK_MAX_NODES or when the worker fails. Columns by rank; a column with many nodes wraps into
// several sub-columns so 4,000 load balancers make a block, not a line 400,000 px tall. Groups are
// sized to their stacked children. Linear time, main thread.
import type { VisibleGraph } from './visible-graph.ts';
import type { Box } from './elk-graph.ts';
import { collapsedGroupSize, GROUP_HEADER_H, GROUP_PAD, leafSize, NODE_WIDTH } from './sizes.ts';

const COL_GAP = 110;
const ROW_GAP = 18;
const SUB_GAP = 24;
const MIN_PER_COLUMN = 30;

export function fallbackLayout(vis: VisibleGraph): Record<string, Box> {
  const out: Record<string, Box> = {};
  const children = new Map<string, string[]>();
  const byId = new Map(vis.nodes.map((n) => [n.id, n]));
  const tops: string[] = [];
  for (const n of vis.nodes) {
    if (n.parent && vis.openGroups.has(n.parent) && byId.has(n.parent)) {
      const list = children.get(n.parent) ?? [];
      list.push(n.id);
      children.set(n.parent, list);
    } else tops.push(n.id);
  }
  const size = (id: string): { width: number; height: number } => {
    const n = byId.get(id)!;
    if (!vis.openGroups.has(id)) return vis.collapsedGroups.has(id) ? collapsedGroupSize() : leafSize(n);
    let y = GROUP_HEADER_H + 6;
    let w = NODE_WIDTH;
    for (const c of children.get(id) ?? []) {
      const s = size(c);
      out[c] = { x: GROUP_PAD, y, ...s };
      y += s.height + 10;
      w = Math.max(w, s.width);
    }
    return { width: w + 2 * GROUP_PAD, height: y - 10 + GROUP_PAD };
  };
  const ranks = [...new Set(tops.map((id) => byId.get(id)!.rank))].sort((a, b) => a - b);
  const perColumn = Math.max(MIN_PER_COLUMN, Math.ceil(Math.sqrt(tops.length) * 2));
  let x = 0;
  for (const r of ranks) {
    const ids = tops.filter((t) => byId.get(t)!.rank === r);
    for (let start = 0; start < ids.length; start += perColumn) {
      let y = 0;
      let colW = NODE_WIDTH;
      for (const id of ids.slice(start, start + perColumn)) {
        const s = size(id);
        out[id] = { x, y, ...s };
        y += s.height + ROW_GAP;
        colW = Math.max(colW, s.width);
      }
      x += colW + (start + perColumn < ids.length ? SUB_GAP : COL_GAP);
    }
  }
  return out;
}
