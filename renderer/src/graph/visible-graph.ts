// What of the topology is drawn: children of collapsed groups are hidden and their edges are
// re-attached to the group, so collapsing a compartment or an lb-group keeps the wiring readable.
// Pure; shared by the layout input (elk-graph.ts, fallback-layout.ts) and to-flow.ts.
import type { ObjectRef, TopoEdge, TopoNode, TopologyGraph } from '../../../analysis/view-models/types.ts';
import { refKey } from '../../../analysis/view-models/types.ts';

export interface VisibleGraph {
  nodes: TopoNode[];
  edges: TopoEdge[];
  /** Ids of visible nodes that have visible children (drawn as compound groups). */
  openGroups: Set<string>;
  /** Ids of visible group nodes whose children are hidden, with how many they hide. */
  collapsedGroups: Map<string, number>;
  /** Every node id → the visible node that stands for it. */
  visibleOf: Map<string, string>;
}

/** Node ids that are the parent of at least one node. */
export function groupIds(g: Pick<TopologyGraph, 'nodes'>): Set<string> {
  const ids = new Set(g.nodes.map((n) => n.id));
  const out = new Set<string>();
  for (const n of g.nodes) if (n.parent && ids.has(n.parent)) out.add(n.parent);
  return out;
}

export function visibleGraph(g: Pick<TopologyGraph, 'nodes' | 'edges'>, collapsed: ReadonlySet<string>): VisibleGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const groups = groupIds(g);
  const visibleOf = new Map<string, string>();
  // The visible stand-in is the outermost collapsed ancestor, or the node itself.
  const resolve = (id: string): string => {
    const known = visibleOf.get(id);
    if (known) return known;
    let target = id;
    const seen = new Set<string>();
    for (let cur = byId.get(id); cur?.parent && byId.has(cur.parent) && !seen.has(cur.id); cur = byId.get(cur.parent)) {
      seen.add(cur.id);
      if (collapsed.has(cur.parent)) target = cur.parent;
    }
    visibleOf.set(id, target);
    return target;
  };
  const nodes: TopoNode[] = [];
  const hidden = new Map<string, number>();
  for (const n of g.nodes) {
    const v = resolve(n.id);
    if (v === n.id) nodes.push(n);
    else hidden.set(v, (hidden.get(v) ?? 0) + 1);
  }
  const openGroups = new Set<string>();
  const collapsedGroups = new Map<string, number>();
  for (const id of groups) {
    if (resolve(id) !== id) continue;
    if (collapsed.has(id)) collapsedGroups.set(id, hidden.get(id) ?? 0);
    else openGroups.add(id);
  }
  const edges: TopoEdge[] = [];
  const seenEdges = new Set<string>();
  for (const e of g.edges) {
    if (!byId.has(e.source) || !byId.has(e.target)) continue;
    const s = resolve(e.source);
    const t = resolve(e.target);
    if (s === t) continue;
    if (s === e.source && t === e.target) {
      if (!seenEdges.has(e.id)) edges.push(e);
      seenEdges.add(e.id);
      continue;
    }
    const id = `${e.kind}:${s}->${t}`;
    if (seenEdges.has(id)) continue;
    seenEdges.add(id);
    edges.push({ ...e, id, source: s, target: t });
  }
  return { nodes, edges, openGroups, collapsedGroups, visibleOf };
}

/** Which node stands for an object: its own node, the lb-group holding it, or the node of the
 *  same object under another type (an endpoint's VFP port shares the endpoint's GUID). */
export function nodeIdForRef(g: Pick<TopologyGraph, 'nodes'>, ref: ObjectRef): string | undefined {
  const key = refKey(ref);
  const id = ref.id.toLowerCase();
  let sameId: string | undefined;
  let member: string | undefined;
  for (const n of g.nodes) {
    if (n.ref && refKey(n.ref) === key) return n.id;
    if (!member && n.members?.some((m) => refKey(m) === key)) member = n.id;
    if (!sameId && ((n.ref && n.ref.id.toLowerCase() === id) || n.guid?.toLowerCase() === id)) sameId = n.id;
  }
  return member ?? sameId;
}

/** Groups collapsed by default: big graphs start with compartments folded so the first layout is small. */
export function defaultCollapsed(g: Pick<TopologyGraph, 'nodes'>, threshold = 400): Set<string> {
  if (g.nodes.length <= threshold) return new Set();
  const groups = groupIds(g);
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  return new Set([...groups].filter((id) => byId.get(id)?.kind === 'lb-group'));
}

/** The visible node standing for an object: its node, or the collapsed group hiding it. */
export function visibleNodeFor(g: Pick<TopologyGraph, 'nodes'>, vis: Pick<VisibleGraph, 'visibleOf'>, ref: ObjectRef): string | undefined {
  const id = nodeIdForRef(g, ref);
  return id ? vis.visibleOf.get(id) ?? id : undefined;
}

/** The visible nodes standing for a list of objects (a finding's), those the graph does not draw left out. */
export function visibleNodesFor(g: Pick<TopologyGraph, 'nodes'>, vis: Pick<VisibleGraph, 'visibleOf'>, refs: readonly ObjectRef[]): Set<string> {
  const out = new Set<string>();
  for (const r of refs) {
    const id = visibleNodeFor(g, vis, r);
    if (id) out.add(id);
  }
  return out;
}
