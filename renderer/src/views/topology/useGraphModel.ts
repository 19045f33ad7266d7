// The React Flow model of the topology: what is visible once nodes are folded, laid out (useLayout:
// the top level arranged once per topology, ELK's order when it answers; each collapse state stacked
// from it and cached), turned into React Flow nodes and edges. Nothing here knows about selection,
// walks or findings (useHighlight marks those).
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

export function useGraphModel(full: TopologyGraph | undefined, collapsed: ReadonlySet<string>, key: string, aspect: () => number): GraphModel {
  const vis = useMemo(() => (full ? visibleGraph(full, collapsed) : undefined), [full, collapsed]);
  const layout = useLayout(full, vis, key, aspect);
  const flow = useMemo(() => (vis && layout.boxes ? toFlow(vis, layout.boxes) : EMPTY), [vis, layout.boxes]);
  return { vis, layout, flow };
}
