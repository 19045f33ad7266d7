// What lights up on the drawn graph: the packet walk's path (lit nodes with hop badges, the current
// hop, the edges it follows, dashed jumps where no drawn edge joins two hops) and the objects of the
// finding being looked at. Pure; untouched nodes and edges keep their identity (applyHighlight), so
// memoized node components do not re-render.
import { applyHighlight, jumpEdges, type FlowEdge, type FlowNode } from './adapter.ts';
import type { VisibleGraph } from './visible.ts';
import type { WalkPath } from './walk-path.ts';

export interface FlowHighlight {
  walk?: WalkPath;
  /** Visible node ids of the finding being looked at. */
  finding?: ReadonlySet<string>;
}

export function highlightFlow(flow: { nodes: FlowNode[]; edges: FlowEdge[] }, hl: FlowHighlight, vis: Pick<VisibleGraph, 'nodes'> | undefined): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const { walk, finding } = hl;
  const out = applyHighlight(flow.nodes, flow.edges, { walkNodes: walk?.nodes, walkCurrent: walk?.current, walkEdges: walk?.edges, finding });
  if (!walk?.jumps.length || !vis) return out;
  const drawn = new Set(out.nodes.map((n) => n.id));
  return { nodes: out.nodes, edges: [...out.edges, ...jumpEdges(walk.jumps, vis, drawn)] };
}
