// Faults drawn on the objects they concern: every error or warning finding marks the nodes of its
// objects (the refs the findings view model resolved, and the remote subnets, next hops, missing
// endpoints and adapters — by name: "vEthernet (Ethernet)" — its `objects` name), and the drawn edges between two of them — so a remote subnet HNS
// routes and VFP lacks (drift-remote-subnet-route: the subnet, its provider address and the pods'
// ports) is a red route and a red tunnel, not a line like any other. Pure; over the visible graph (a
// folded group carries the marks of what it hides).
import type { ObjectRef, TopoNode, TopologyGraph } from '../../../analysis/view-models/types.ts';
import { refKey } from '../../../analysis/view-models/types.ts';
import type { VisibleGraph } from './visible-graph.ts';

export type FaultSeverity = 'error' | 'warning';

export interface FindingLike {
  key: string;
  severity: string;
  title: string;
  refs: readonly ObjectRef[];
  objects: readonly string[];
}

export interface FaultMark {
  severity: FaultSeverity;
  /** The findings about this node, errors first. */
  findings: { key: string; title: string; severity: FaultSeverity }[];
}

export interface FaultMarks {
  /** Visible node id → its mark. */
  nodes: Map<string, FaultMark>;
  /** Visible edge id → the worst severity of the findings it lies between. */
  edges: Map<string, FaultSeverity>;
}

const worse = (a: FaultSeverity | undefined, b: FaultSeverity): FaultSeverity => (a === 'error' || b === 'error' ? 'error' : 'warning');

/** Node ids of the whole graph a finding is about. */
export function findingNodeIds(index: NodeIndex, f: Pick<FindingLike, 'refs' | 'objects'>): Set<string> {
  const out = new Set<string>();
  for (const r of f.refs) {
    const id = index.forRef(r);
    if (id) out.add(id);
  }
  for (const raw of f.objects) {
    const o = raw.trim();
    for (const id of [`remote-subnet:${o}`, `next-hop:${o}`, `missing:${o.toLowerCase()}`]) if (index.has(id)) out.add(id);
    // Checks about an adapter (an APIPA host vNIC) name it, and have no HNS or VFP id to give.
    const adapter = index.forAdapter(o);
    if (adapter) out.add(adapter);
  }
  return out;
}

export interface NodeIndex {
  has(id: string): boolean;
  kind(id: string): TopoNode['kind'] | undefined;
  /** The node standing for an object: its own, the lb-group listing it, or one sharing its GUID. */
  forRef(r: ObjectRef): string | undefined;
  /** The node drawing the adapter of this name (case-insensitive): a host vNIC, an uplink, a pod's vNIC. */
  forAdapter(name: string): string | undefined;
}

/** Lookups over the whole graph, built once (nodeIdForRef's rules, without a scan per object). */
export function nodeIndex(g: Pick<TopologyGraph, 'nodes'>): NodeIndex {
  const kinds = new Map<string, TopoNode['kind']>();
  const byRef = new Map<string, string>();
  const byMember = new Map<string, string>();
  const byGuid = new Map<string, string>();
  const byAdapter = new Map<string, string>();
  for (const n of g.nodes) {
    const names = (n.copy ?? []).filter((c) => c.label === 'adapter').map((c) => c.value);
    if (n.kind === 'host-vnic' || n.kind === 'uplink') names.push(n.label);
    for (const a of names) if (!byAdapter.has(a.toLowerCase())) byAdapter.set(a.toLowerCase(), n.id);
    kinds.set(n.id, n.kind);
    if (n.ref && !byRef.has(refKey(n.ref))) byRef.set(refKey(n.ref), n.id);
    for (const m of n.members ?? []) if (!byMember.has(refKey(m))) byMember.set(refKey(m), n.id);
    for (const id of [n.ref?.id, n.guid]) if (id && !byGuid.has(id.toLowerCase())) byGuid.set(id.toLowerCase(), n.id);
  }
  return {
    has: (id) => kinds.has(id),
    kind: (id) => kinds.get(id),
    forRef: (r) => byRef.get(refKey(r)) ?? byMember.get(refKey(r)) ?? byGuid.get(r.id.toLowerCase()),
    forAdapter: (name) => byAdapter.get(name.trim().toLowerCase()),
  };
}

export function faultMarks(index: NodeIndex, vis: Pick<VisibleGraph, 'edges' | 'visibleOf'>, findings: readonly FindingLike[]): FaultMarks {
  const nodes = new Map<string, FaultMark>();
  const edges = new Map<string, FaultSeverity>();
  const perFinding: { sev: FaultSeverity; ids: Set<string> }[] = [];
  for (const f of findings) {
    if (f.severity !== 'error' && f.severity !== 'warning') continue;
    const sev = f.severity;
    const ids = new Set([...findingNodeIds(index, f)].map((id) => vis.visibleOf.get(id) ?? id));
    if (!ids.size) continue;
    perFinding.push({ sev, ids });
    for (const id of ids) {
      const m = nodes.get(id) ?? { severity: sev, findings: [] };
      m.severity = worse(m.severity, sev);
      if (!m.findings.some((x) => x.key === f.key)) m.findings.push({ key: f.key, title: f.title, severity: sev });
      nodes.set(id, m);
    }
  }
  for (const m of nodes.values()) m.findings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  if (!perFinding.length) return { nodes, edges };
  for (const e of vis.edges) {
    for (const { sev, ids } of perFinding) {
      // Between two objects of the finding, or the route into a remote subnet it is about.
      const between = ids.has(e.source) && ids.has(e.target);
      const route = e.kind === 'route' && ids.has(e.target) && index.kind(e.target) === 'remote-subnet';
      if (between || route) edges.set(e.id, worse(edges.get(e.id), sev));
    }
  }
  return { nodes, edges };
}
