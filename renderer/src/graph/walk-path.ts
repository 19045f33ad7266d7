// The packet walk as the drawn graph shows it: the hops mapped onto visible nodes (a collapsed
// group stands for what it hides), the drawn edges the packet follows between consecutive lit nodes
// (with the nodes it passes through on the way), and the jumps where no drawn edge joins two hops.
// Pure: views/topology/useHighlight.ts memoizes it per walk, hop and visible graph.
import type { WalkResult } from '../../../analysis/walk/types.ts';
import { walkEdges, walkHighlight, type TopoIndex, type WalkEdges, type WalkHighlight } from '../walk/model.ts';
import type { VisibleGraph } from './visible-graph.ts';

export interface WalkPath extends WalkHighlight {
  /** Drawn edges the packet follows → the direction it takes along them. */
  edges: WalkEdges['edges'];
  /** Consecutive lit nodes no drawn edge joins (drawn as dashed jumps). */
  jumps: WalkEdges['jumps'];
}

/** Nesting deeper than this is a cycle in bad input, not a real group chain. */
const MAX_NESTING = 16;

export function walkPath(walk: WalkResult, hop: number, index: TopoIndex, vis: Pick<VisibleGraph, 'nodes' | 'edges' | 'visibleOf'>): WalkPath {
  const hl = walkHighlight(walk, hop, index, (id) => vis.visibleOf.get(id) ?? id);
  const parentOf = new Map(vis.nodes.map((n) => [n.id, n.parent]));
  const isInside = (child: string, group: string) => {
    for (let p = parentOf.get(child), d = 0; p && d < MAX_NESTING; p = parentOf.get(p), d++) if (p === group) return true;
    return false;
  };
  const joined = walkEdges(hl.order, vis.edges, isInside);
  // Nodes the packet passes through on a chain of drawn edges are lit too, without a hop number.
  const nodes = new Map(hl.nodes);
  for (const v of joined.via) if (!nodes.has(v)) nodes.set(v, []);
  return { ...hl, nodes, edges: joined.edges, jumps: joined.jumps };
}
