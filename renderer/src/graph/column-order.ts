// The order of the top-level nodes inside each column, which decides how many edges cross. The
// instant order sweeps the columns with neighbour barycentres (the layered-layout heuristic: a node
// sits near the average position of what it is joined to), a few passes, linear in the edges; ELK's
// crossing minimisation (layout.worker.ts) refines it on graphs small enough for it. In the stacked
// columns (uplink → vSwitch → network, subnet → next hop) a node follows the node that leads to it.
// Pure.
import type { TopoEdge, TopoNode } from '../../../analysis/view-models/types.ts';
import { COLUMN_COUNT, columnOf } from './columns.ts';

type Skeleton = { nodes: readonly TopoNode[]; edges: readonly TopoEdge[] };

function columnsOf(skel: Skeleton): TopoNode[][] {
  const cols: TopoNode[][] = Array.from({ length: COLUMN_COUNT }, () => []);
  for (const n of skel.nodes) cols[columnOf(n)].push(n);
  return cols;
}

/** In a column holding several ranks, each node comes right after the node of its column that leads to it. */
export function stackChains(col: readonly TopoNode[], edges: readonly TopoEdge[]): TopoNode[] {
  const ranks = new Set(col.map((n) => n.rank));
  if (ranks.size < 2) return [...col];
  const inCol = new Map(col.map((n) => [n.id, n]));
  const leadOf = new Map<string, string>();
  for (const e of edges) {
    const s = inCol.get(e.source);
    const t = inCol.get(e.target);
    if (s && t && s.rank < t.rank && !leadOf.has(t.id)) leadOf.set(t.id, s.id);
  }
  const out: TopoNode[] = [];
  const placed = new Set<string>();
  const followers = new Map<string, TopoNode[]>();
  for (const n of col) {
    const lead = leadOf.get(n.id);
    if (lead) followers.set(lead, [...(followers.get(lead) ?? []), n]);
  }
  const place = (n: TopoNode, depth = 0) => {
    if (placed.has(n.id) || depth > 16) return;
    placed.add(n.id);
    out.push(n);
    for (const f of followers.get(n.id) ?? []) place(f, depth + 1);
  };
  // Chains start from their lowest rank (the uplink before a network nothing in the column leads to).
  const roots = col.filter((n) => !leadOf.has(n.id)).sort((a, b) => a.rank - b.rank);
  for (const n of roots) place(n);
  for (const n of col) place(n);
  return out;
}

/** Top-level node ids per column, ordered by neighbour barycentres (forward, backward, forward). */
export function barycentreOrder(skel: Skeleton): string[][] {
  const cols = columnsOf(skel);
  const colOf = new Map<string, number>();
  cols.forEach((c, i) => c.forEach((n) => colOf.set(n.id, i)));
  const nbrs = new Map<string, string[]>();
  for (const e of skel.edges) {
    const a = colOf.get(e.source);
    const b = colOf.get(e.target);
    if (a === undefined || b === undefined || a === b) continue;
    nbrs.set(e.source, [...(nbrs.get(e.source) ?? []), e.target]);
    nbrs.set(e.target, [...(nbrs.get(e.target) ?? []), e.source]);
  }
  const pos = new Map<string, number>();
  const setPos = (c: number) => cols[c].forEach((n, i) => pos.set(n.id, (i + 0.5) / cols[c].length));
  cols.forEach((_, c) => setPos(c));
  const sweep = (c: number, from: (d: number) => boolean) => {
    const keyed = cols[c].map((n, i) => {
      const ps = (nbrs.get(n.id) ?? []).filter((m) => from(colOf.get(m)!)).map((m) => pos.get(m)!);
      return { n, i, k: ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : pos.get(n.id)! };
    });
    keyed.sort((a, b) => a.k - b.k || a.i - b.i);
    cols[c] = keyed.map((x) => x.n);
    setPos(c);
  };
  for (let c = 1; c < COLUMN_COUNT; c++) sweep(c, (d) => d < c);
  for (let c = COLUMN_COUNT - 2; c >= 0; c--) sweep(c, (d) => d > c);
  for (let c = 1; c < COLUMN_COUNT; c++) sweep(c, (d) => d !== c);
  return cols.map((c) => stackChains(c, skel.edges).map((n) => n.id));
}

/** Top-level node ids per column in the order ELK placed them (top to bottom). */
export function orderFromPositions(skel: Skeleton, y: Readonly<Record<string, number>>): string[][] {
  return columnsOf(skel).map((c) => {
    const sorted = c.map((n, i) => ({ n, i })).sort((a, b) => (y[a.n.id] ?? Infinity) - (y[b.n.id] ?? Infinity) || a.i - b.i);
    return stackChains(sorted.map((x) => x.n), skel.edges).map((n) => n.id);
  });
}
