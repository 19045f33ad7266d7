// The React Flow model of the topology: what is visible once groups are folded, laid out (useLayout:
// ELK in a worker, the column layout meanwhile or instead), turned into React Flow nodes and edges.
// Nothing here knows about selection, walks or findings (useHighlight marks those).
import { useMemo } from 'react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { visibleGraph, type VisibleGraph } from '../../graph/visible-graph.ts';
import { toFlow, type FlowEdge, type FlowNode } from '../../graph/to-flow.ts';
import { useLayout, type LayoutState } from '../../graph/useLayout.ts';

export interface GraphModel {
  vis?: VisibleGraph;
  layout: LayoutState;
  /** Nodes and edges with a box (none until the first layout arrives). */
  flow: { nodes: FlowNode[]; edges: FlowEdge[] };
}

const EMPTY: GraphModel['flow'] = { nodes: [], edges: [] };

export function useGraphModel(topology: TopologyGraph | undefined, collapsed: ReadonlySet<string>): GraphModel {
  const vis = useMemo(() => (topology ? visibleGraph(topology, collapsed) : undefined), [topology, collapsed]);
  const layout = useLayout(vis);
  const flow = useMemo(() => (vis && layout.boxes ? toFlow(vis, layout.boxes) : EMPTY), [vis, layout.boxes]);
  return { vis, layout, flow };
}
