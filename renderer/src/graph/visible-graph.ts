// What of the topology is drawn: children of collapsed groups are hidden and their edges are
// re-attached to the group, so collapsing a compartment or an lb-group keeps the wiring readable —
// except a folded compartment holding a single endpoint (every pod's), which is drawn as that
// endpoint without the frame around it (the pod is what a reader looks for; its id stays the
// endpoint's, so walks, findings and selections name the node they always did). A node attached to
// another (a pod's VFP port) is folded into it until that node is expanded. An edge that stands for
// a group's members (`summary`) is drawn only while the group is folded. Pure; shared by the layout
// (stack-layout.ts, the ELK ordering) and to-flow.ts.
import type { ObjectRef, TopoEdge, TopoNode, TopologyGraph } from '../../../analysis/view-models/types.ts';
import { refKey } from '../../../analysis/view-models/types.ts';

export interface VisibleGraph {
  nodes: TopoNode[];
  edges: TopoEdge[];
  /** Ids of visible nodes that have visible children (drawn as compound groups). */
  openGroups: Set<string>;
  /** Ids of visible group nodes whose children are hidden, with how many nodes they hide. */
  collapsedGroups: Map<string, number>;
  /** Endpoints drawn without the folded compartment around them (every pod's) → that compartment. */
  frameless: Map<string, TopoNode>;
  /** Visible nodes with attached nodes folded into them (a pod endpoint's VFP port) → those nodes. */
  folded: Map<string, TopoNode[]>;
  /** Visible nodes whose attached nodes are drawn (the endpoint's port is open). */
  unfolded: Set<string>;
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

/** Node ids that have attached nodes (endpoints with a VFP port node). */
export function hostIds(g: Pick<TopologyGraph, 'nodes'>): Set<string> {
  const ids = new Set(g.nodes.map((n) => n.id));
  const out = new Set<string>();
  for (const n of g.nodes) if (n.attachedTo && ids.has(n.attachedTo)) out.add(n.attachedTo);
  return out;
}

/** Nesting deeper than this is a cycle in bad input, not a real chain of groups. */
const MAX_DEPTH = 32;

/**
 * The drawn part of `g` when the nodes in `collapsed` are folded: a collapsed group hides its
 * descendants, a collapsed host hides what is attached to it.
 */
export function visibleGraph(g: Pick<TopologyGraph, 'nodes' | 'edges'>, collapsed: ReadonlySet<string>): VisibleGraph {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const groups = groupIds(g);
  // A folded compartment with one endpoint among its own children: drawn as that endpoint.
  const frameless = new Map<string, TopoNode>();
  const soleEndpoint = new Map<string, TopoNode | null>();
  for (const n of g.nodes) {
    if (n.kind !== 'endpoint' || n.attachedTo || !n.parent || !collapsed.has(n.parent) || byId.get(n.parent)?.kind !== 'compartment') continue;
    soleEndpoint.set(n.parent, soleEndpoint.has(n.parent) ? null : n);
  }
  const promoted = new Map<string, TopoNode>();
  for (const [comp, ep] of soleEndpoint) {
    if (!ep) continue;
    promoted.set(comp, ep);
    frameless.set(ep.id, byId.get(comp)!);
  }
  /** A node's parent as far as folding goes: a compartment drawn as its endpoint hides nothing. */
  const foldingParent = (n: TopoNode): string | undefined => (n.parent && byId.has(n.parent) && !promoted.has(n.parent) ? n.parent : undefined);
  const visibleOf = new Map<string, string>();
  const resolve = (id: string, depth = 0): string => {
    const known = visibleOf.get(id);
    if (known) return known;
    const promotedTo = promoted.get(id);
    if (promotedTo && depth < MAX_DEPTH) {
      const v = resolve(promotedTo.id, depth + 1);
      visibleOf.set(id, v);
      return v;
    }
    let target = id;
    const seen = new Set<string>();
    // The outermost collapsed ancestor hides the node.
    for (let cur = byId.get(id); cur && foldingParent(cur) && !seen.has(cur.id) && seen.size < MAX_DEPTH; cur = byId.get(cur.parent!)) {
      seen.add(cur.id);
      if (collapsed.has(cur.parent!)) target = cur.parent!;
    }
    // Else an attached node is folded into its host while the host is collapsed or hidden itself.
    const host = byId.get(id)?.attachedTo;
    if (target === id && host && host !== id && byId.has(host) && depth < MAX_DEPTH) {
      const h = resolve(host, depth + 1);
      if (collapsed.has(host) || h !== host) target = h;
    }
    visibleOf.set(id, target);
    return target;
  };
  const nodes: TopoNode[] = [];
  const hidden = new Map<string, TopoNode[]>();
  for (const n of g.nodes) {
    const v = resolve(n.id);
    if (v === n.id) nodes.push(n);
    else hidden.set(v, [...(hidden.get(v) ?? []), n]);
  }
  const openGroups = new Set<string>();
  const collapsedGroups = new Map<string, number>();
  const visibleIds = new Set(nodes.map((n) => n.id));
  for (const id of groups) {
    if (!visibleIds.has(id)) continue;
    const inside = hidden.get(id) ?? [];
    if (collapsed.has(id) || !nodes.some((n) => n.parent === id)) collapsedGroups.set(id, inside.length);
    else openGroups.add(id);
  }
  const folded = new Map<string, TopoNode[]>();
  const unfolded = new Set<string>();
  for (const n of g.nodes) {
    if (!n.attachedTo || !byId.has(n.attachedTo)) continue;
    const v = resolve(n.id);
    if (v === n.id) unfolded.add(n.attachedTo);
    else if (v === n.attachedTo) folded.set(v, [...(folded.get(v) ?? []), n]);
  }
  const edges: TopoEdge[] = [];
  const seenEdges = new Set<string>();
  for (const e of g.edges) {
    if (!byId.has(e.source) || !byId.has(e.target)) continue;
    // A group's summary edge while the group is open: its members draw their own.
    if (e.summary && (openGroups.has(e.source) || openGroups.has(e.target))) continue;
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
  return { nodes, edges, openGroups, collapsedGroups, frameless, folded, unfolded, visibleOf };
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
