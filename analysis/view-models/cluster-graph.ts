// The cluster workspace's graph: each node as a group (its address, its pod subnets, its pods), the
// paths between nodes (what one node's routes or tunnels say about another: resolved joins, one edge
// per pair and kind), and the addresses a node sends to that no open node has (an unresolved join: a
// stale provider address shows as an edge into nowhere). A walk across nodes lights the groups, pods
// and paths it crosses (`walkLitIds`).
import type { ClusterModel, ClusterNode, ClusterFinding, StitchedWalk } from '../cluster/index.ts';
import { canonIp } from '../walk/ip.ts';

export interface ClusterGraphNode {
  /** `cnode:<id>` (a node's group), `caddr:<id>`, `csubnet:<id>:<prefix>`, `cpod:<id>:<ip>`, `cnowhere:<address>`. */
  id: string;
  kind: 'node' | 'address' | 'subnet' | 'pod' | 'nowhere';
  label: string;
  detail?: string;
  /** The group it is drawn in. */
  parent?: string;
  /** Errors and warnings of the node's own findings, and the cross-node findings naming it odd. */
  errors?: number;
  warnings?: number;
  odd?: number;
}

export interface ClusterGraphEdge {
  /** `cpath:<from>><to>` between two nodes' groups, `cpath:<from>>nowhere:<address>` to an address no node has. */
  id: string;
  source: string;
  target: string;
  label: string;
  kind: 'vxlan' | 'route' | 'fabric' | 'unresolved';
  inferred?: boolean;
}

export interface ClusterGraph {
  nodes: ClusterGraphNode[];
  edges: ClusterGraphEdge[];
  /** Pods shown per node (the others are counted in the group's detail). */
  podsShown: number;
}

const MAX_PODS = 12;
export const groupId = (n: string) => `cnode:${n}`;
export const podId = (n: string, ip: string) => `cpod:${n}:${canonIp(ip) ?? ip}`;
export const pathId = (from: string, to: string) => `cpath:${from}>${to}`;
export const nowhereId = (address: string) => `cnowhere:${address}`;

export function clusterGraph(c: ClusterModel, findings: ClusterFinding[] = []): ClusterGraph {
  const nodes: ClusterGraphNode[] = [];
  const edges: ClusterGraphEdge[] = [];
  const oddCount = new Map<string, number>();
  for (const f of findings) for (const o of f.nodes.odd) oddCount.set(o, (oddCount.get(o) ?? 0) + 1);
  for (const n of c.nodes) {
    const i = n.identity;
    const pods = n.digest.localPods;
    nodes.push({ id: groupId(n.id), kind: 'node', label: n.id, detail: `${i.platformLabel}${i.windowsBuild ? ` · ${i.windowsBuild}` : ''} · ${pods.length} pod${pods.length === 1 ? '' : 's'}`, errors: n.digest.errors, warnings: n.digest.warnings, odd: oddCount.get(n.id) ?? 0 });
    nodes.push({ id: `caddr:${n.id}`, kind: 'address', label: i.nodeIp ?? i.addresses[0] ?? '(address unknown)', detail: [i.providerAddress && i.providerAddress !== i.nodeIp ? `PA ${i.providerAddress}` : '', i.drMac ? `DR MAC ${i.drMac}` : ''].filter(Boolean).join(' · ') || undefined, parent: groupId(n.id) });
    for (const s of i.podSubnets) if (s.from === 'hns') nodes.push({ id: `csubnet:${n.id}:${s.prefix}`, kind: 'subnet', label: s.prefix, detail: 'pod subnet', parent: groupId(n.id) });
    for (const ip of pods.slice(0, MAX_PODS)) nodes.push({ id: podId(n.id, ip), kind: 'pod', label: ip, parent: groupId(n.id) });
  }
  const seen = new Set<string>();
  const add = (e: ClusterGraphEdge) => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    edges.push(e);
  };
  for (const j of c.joins) {
    if (j.kind !== 'remote-subnet' && j.kind !== 'host-route') continue;
    const kind = j.kind === 'remote-subnet' ? 'vxlan' : 'route';
    const address = j.what.split(/ → PA | via /)[1]?.split(' ')[0] ?? j.key;
    if (j.to && j.resolved) add({ id: pathId(j.from, j.to), source: groupId(j.from), target: groupId(j.to), label: kind === 'vxlan' ? `VXLAN ${address}` : `via ${address}`, kind });
    else if (!j.to) {
      if (!nodes.some((x) => x.id === nowhereId(address))) nodes.push({ id: nowhereId(address), kind: 'nowhere', label: address, detail: 'no open node has this address' });
      add({ id: pathId(j.from, `nowhere:${address}`), source: groupId(j.from), target: nowhereId(address), label: `${kind === 'vxlan' ? 'VXLAN' : 'via'} ${address} (${j.key})`, kind: 'unresolved' });
    }
  }
  // Plugins whose pods are cloud addresses: the fabric connects every node (inferred).
  const fabric = c.nodes.filter((n) => n.identity.crossNode === 'fabric');
  for (const a of fabric) for (const b of fabric) if (a !== b && a.id < b.id) add({ id: pathId(a.id, b.id), source: groupId(a.id), target: groupId(b.id), label: 'cloud fabric', kind: 'fabric', inferred: true });
  return { nodes, edges, podsShown: MAX_PODS };
}

/** What a walk across nodes lights: the groups it crosses, its pods, the paths it takes (both directions count). */
export function walkLitIds(c: ClusterModel, w: StitchedWalk): string[] {
  const out = new Set<string>();
  const pods = (n: ClusterNode) => new Set(n.digest.localPods);
  for (const l of w.legs) out.add(groupId(l.node));
  const first = w.legs[0];
  const last = w.legs[w.legs.length - 1];
  const node = (id: string | undefined) => (id ? c.byId(id) : undefined);
  const src = node(first?.node);
  const dst = node(last?.node);
  if (src && pods(src).has(canonIp(w.flow.srcIp) ?? '')) out.add(podId(src.id, w.flow.srcIp));
  if (dst && pods(dst).has(canonIp(w.final.dstIp) ?? '')) out.add(podId(dst.id, w.final.dstIp));
  for (const h of w.handovers) {
    if (h.to) {
      const fwd = pathId(h.from, h.to);
      const back = pathId(h.to, h.from);
      out.add(fwd);
      out.add(back);
    } else out.add(pathId(h.from, `nowhere:${h.address}`)).add(nowhereId(h.address));
  }
  return [...out];
}
