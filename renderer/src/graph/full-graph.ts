// The topology with what the backend sent apart (`attached`: each pod's VFP port, the load balancers
// of each group) merged into one node and edge list, which is what the graph folds and unfolds.
// Memoized per topology object, so every hook sees the same graph.
import type { TopologyGraph } from '../../../analysis/view-models/types.ts';

const merged = new WeakMap<TopologyGraph, TopologyGraph>();

export function fullGraph(t: TopologyGraph): TopologyGraph {
  const known = merged.get(t);
  if (known) return known;
  const g: TopologyGraph = t.attached
    ? { nodes: [...t.nodes, ...t.attached.nodes], edges: [...t.edges, ...t.attached.edges], collapsed: t.collapsed }
    : { nodes: t.nodes, edges: t.edges, collapsed: t.collapsed };
  merged.set(t, g);
  return g;
}
