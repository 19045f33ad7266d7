// Lays out a test topology the way useLayout does (the instant order, one arrangement, stacked).
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';
import { visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { defaultCollapsed, foldable } from '../../../renderer/src/graph/collapse-state.ts';
import { barycentreOrder } from '../../../renderer/src/graph/column-order.ts';
import { makeFrame, stackLayout, type LayoutFrame } from '../../../renderer/src/graph/stack-layout.ts';
import type { Box } from '../../../renderer/src/graph/elk-graph.ts';

export function frameOf(g: TopologyGraph, aspect = 1.5): LayoutFrame {
  const { groups, hosts } = foldable(g);
  const skel = visibleGraph(g, new Set([...groups, ...hosts]));
  return makeFrame(visibleGraph(g, defaultCollapsed(g)), barycentreOrder(skel), aspect);
}

export function layoutOf(g: TopologyGraph, collapsed: ReadonlySet<string>, frame = frameOf(g)): Record<string, Box> {
  return stackLayout(visibleGraph(g, collapsed), frame);
}
