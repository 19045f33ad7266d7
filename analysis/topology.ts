// Placeholder replaced by the topology builder (in progress in this session).
import type { NodeModel } from '../parsers/model/types.ts';
import type { TopologyGraph, TopologyOptions } from './views/types.ts';

export function buildTopology(_m: NodeModel, _o: TopologyOptions = {}): TopologyGraph {
  return { nodes: [], edges: [], collapsed: false };
}
