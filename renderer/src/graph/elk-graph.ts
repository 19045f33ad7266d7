// The top level of the topology as ELK's JSON graph, for ELK's crossing minimisation to order each
// column (the positions come from stack-layout.ts, which packs the columns tighter than ELK's node
// placement and keeps them when a group opens). Layered, left to right; each node's column
// (columns.ts) is an ELK partition, so uplink → … → remote stay in that order whatever the edges say.
// Pure, so the worker and the tests share it.
import type { TopoEdge, TopoNode } from '../../../analysis/view-models/types.ts';
import { columnOf } from './columns.ts';

export interface ElkNodeJson {
  id: string;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  layoutOptions?: Record<string, string>;
  children?: ElkNodeJson[];
  edges?: { id: string; sources: string[]; targets: string[] }[];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const ROOT_OPTIONS: Record<string, string> = {
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.partitioning.activate': 'true',
  'elk.layered.spacing.nodeNodeBetweenLayers': '90',
  'elk.spacing.nodeNode': '12',
  // Only the order within each layer is used: the cheapest placement and routing will do.
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.separateConnectedComponents': 'false',
};

/** Above this many top-level nodes ELK's ordering takes seconds for little gain over the
 *  barycentre order (column-order.ts), which is then final. */
export const ELK_MAX_NODES = 250;

/** Crossing minimisation is the cost; measured on an 800-node synthetic node: thoroughness 7 (the
 *  default) ≈ 25 s, 3 ≈ 7 s, 1 ≈ 3 s. Small graphs get the careful ordering, bigger ones a fast one. */
export function thoroughnessFor(nodeCount: number): number {
  return nodeCount < 150 ? 7 : nodeCount < 400 ? 3 : 1;
}

/** At most this many load-balancer → DIP edges per node go to ELK: thousands of them made the
 *  ordering take minutes, and past a few they no longer say where a node belongs. */
const DIP_EDGES_PER_NODE = 3;

/**
 * The skeleton (top-level nodes, every group folded) as ELK input: one leaf per node with its size,
 * partitioned by column; edges within a column are left out (a stacked column is ordered by its
 * chains, column-order.ts).
 */
export function toElkGraph(skel: { nodes: readonly TopoNode[]; edges: readonly TopoEdge[] }, sizeOf: (n: TopoNode) => { width: number; height: number }): ElkNodeJson {
  const layoutOptions: Record<string, string> = { ...ROOT_OPTIONS, 'elk.layered.thoroughness': String(thoroughnessFor(skel.nodes.length)) };
  const col = new Map(skel.nodes.map((n) => [n.id, columnOf(n)]));
  const children = skel.nodes.map((n) => ({ id: n.id, ...sizeOf(n), layoutOptions: { 'elk.partitioning.partition': String(col.get(n.id)) } }));
  const edges: NonNullable<ElkNodeJson['edges']> = [];
  const dips = new Map<string, number>();
  const seen = new Set<string>();
  for (const e of skel.edges) {
    const a = col.get(e.source);
    const b = col.get(e.target);
    if (a === undefined || b === undefined || a === b) continue;
    if (e.kind === 'lb-dip') {
      const n = dips.get(e.source) ?? 0;
      if (n >= DIP_EDGES_PER_NODE) continue;
      dips.set(e.source, n + 1);
    }
    const id = `${e.source}->${e.target}`;
    if (seen.has(id)) continue;
    seen.add(id);
    edges.push({ id, sources: [e.source], targets: [e.target] });
  }
  return { id: '__root', layoutOptions, children, edges };
}

/** The y of each top-level node in ELK's answer (the order within its column is all that is used). */
export function positionsFromElk(root: ElkNodeJson): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of root.children ?? []) out[c.id] = c.y ?? 0;
  return out;
}
