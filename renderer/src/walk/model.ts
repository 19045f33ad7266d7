// The packet walk's pure helpers: parsing what the user typed (“10.244.1.5 -> 10.96.0.10:53/udp”),
// mapping hops onto the nodes the graph draws (an lb-group stands for its load balancers, a
// collapsed compartment for its endpoint), the edges between consecutive lit nodes, the packet
// fields a rewrite changed, and the findings that explain a drop. No DOM, unit-tested.
import type { Flow, Packet, Proto, WalkHop, WalkResult } from '../../../analysis/walk/types.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';
import type { TopoEdge, TopoNode } from '../../../analysis/view-models/types.ts';
import { parseAddress, type Address } from '../../../parsers/net/address.ts';

/** An address somewhere inside a label (“web-1 10.244.1.5”, “VIP 10.96.0.10:53/UDP”). */
const ADDRESS_IN_TEXT = /(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?(?:\/(TCP|UDP|ICMP))?/i;
/** An IPv6 address inside a label (“fd00::5”, “[fd00::a]:80/TCP”); parseAddress decides whether it is one. */
const ADDRESS6_IN_TEXT = /\[[0-9a-f:.]+\](?::\d{1,5})?(?:\/(?:TCP|UDP|ICMP))?|(?<![\w:.])[0-9a-f]{0,4}:[0-9a-f:.]*[0-9a-f](?![\w:])(?:\/(?:TCP|UDP|ICMP))?/gi;

/** A palette query that asks for a walk: “A -> B[:port][/proto]”, also with → , “to” or “>”. */
export function parseWalkQuery(q: string): Flow | undefined {
  const m = /^\s*(\S+)\s*(?:->|→|=>|>|\s+to\s+)\s*(\S+?)(?:\s+(tcp|udp|icmp))?\s*$/i.exec(q);
  if (!m) return undefined;
  const src = parseAddress(m[1]);
  const dst = parseAddress(m[2]);
  if (!src || !dst) return undefined;
  const proto = (m[3]?.toLowerCase() as Proto | undefined) ?? dst.proto ?? src.proto ?? (dst.port !== undefined ? 'tcp' : 'icmp');
  return {
    srcIp: src.ip,
    dstIp: dst.ip,
    proto,
    ...(dst.port !== undefined && proto !== 'icmp' ? { dstPort: dst.port } : {}),
    ...(src.port !== undefined && proto !== 'icmp' ? { srcPort: src.port } : {}),
  };
}

/** “10.96.0.10:53”, “[fd00::a]:80” (RFC 3986: an IPv6 address is bracketed when a port follows), or the bare address. */
export function endpointText(ip: string, port?: number): string {
  if (port === undefined) return ip;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

export function flowText(f: Pick<Flow, 'srcIp' | 'dstIp' | 'dstPort' | 'proto'>): string {
  return `${f.srcIp} → ${endpointText(f.dstIp, f.dstPort)}/${f.proto.toUpperCase()}`;
}

/** What a graph node gives the walk when clicked: its IP (and port/proto for a load balancer). */
export function addressOfNode(n: Pick<TopoNode, 'kind' | 'label' | 'details'>): Address | undefined {
  if (n.kind === 'remote-subnet') return undefined;
  for (const text of [n.label, ...n.details]) {
    const m = ADDRESS_IN_TEXT.exec(text);
    if (m) {
      const a = parseAddress(`${m[1]}${m[2] ? `:${m[2]}` : ''}${m[3] ? `/${m[3]}` : ''}`);
      if (a) return a;
    }
    for (const m6 of text.matchAll(ADDRESS6_IN_TEXT)) {
      const a = parseAddress(m6[0]);
      if (a) return a;
    }
  }
  return undefined;
}

export function addressText(a: Address): string {
  return endpointText(a.ip, a.port);
}

export interface TopoIndex {
  ids: Set<string>;
  /** Load balancer node id → the lb-group node holding it. */
  memberOf: Map<string, string>;
}

export function topoIndex(nodes: readonly Pick<TopoNode, 'id' | 'members'>[]): TopoIndex {
  const ids = new Set(nodes.map((n) => n.id));
  const memberOf = new Map<string, string>();
  for (const n of nodes) for (const m of n.members ?? []) memberOf.set(`${m.type}:${m.id.toLowerCase()}`, n.id);
  return { ids, memberOf };
}

/** The graph node standing for a trace node id, or undefined when the graph does not draw it. A VFP
 *  port of a pod is drawn as its endpoint (same GUID); a grouped load balancer as its lb-group. */
export function resolveNodeId(id: string, idx: TopoIndex): string | undefined {
  const lower = id.replace(/^([a-z-]+):(.*)$/, (_m, k: string, rest: string) => `${k}:${/^[0-9a-f-]{36}$/i.test(rest) ? rest.toLowerCase() : rest}`);
  for (const cand of [id, lower]) {
    if (idx.ids.has(cand)) return cand;
    const g = idx.memberOf.get(cand);
    if (g) return g;
  }
  const m = /^(port|endpoint):(.+)$/.exec(lower);
  if (m) {
    const other = `${m[1] === 'port' ? 'endpoint' : 'port'}:${m[2]}`;
    if (idx.ids.has(other)) return other;
  }
  return undefined;
}

/** The trace node ids one hop lights: its own, else its VFP port's. */
export function hopNodeIds(h: WalkHop): string[] {
  if (h.nodes?.length) return h.nodes;
  if (h.port) return [`port:${h.port.toLowerCase()}`];
  return [];
}

export interface WalkHighlight {
  /** Visible node id → 1-based hop numbers shown in its badge (empty for a path-only node). */
  nodes: Map<string, number[]>;
  /** Visible nodes of the current hop. */
  current: Set<string>;
  /** Visible node ids in path order, consecutive duplicates removed. */
  order: string[];
  /** Hops that light no drawn node (their 0-based indexes). */
  unplaced: number[];
}

export function walkHighlight(t: WalkResult, hop: number, idx: TopoIndex, visibleOf: (id: string) => string = (id) => id): WalkHighlight {
  const nodes = new Map<string, number[]>();
  const current = new Set<string>();
  const order: string[] = [];
  const unplaced: number[] = [];
  const push = (v: string) => {
    if (order[order.length - 1] !== v) order.push(v);
  };
  const place = (id: string) => {
    const r = resolveNodeId(id, idx);
    return r ? visibleOf(r) : undefined;
  };
  t.hops.forEach((h, i) => {
    const vs = [...new Set(hopNodeIds(h).map(place).filter((v): v is string => !!v))];
    if (!vs.length) unplaced.push(i);
    for (const v of vs) {
      const list = nodes.get(v) ?? [];
      list.push(i + 1);
      nodes.set(v, list);
      push(v);
      if (i === hop) current.add(v);
    }
  });
  // Path nodes no hop names (rare) are lit without a number; the hops give the order when they can.
  const pathOrder: string[] = [];
  for (const id of t.path) {
    const v = place(id);
    if (!v) continue;
    if (!nodes.has(v)) nodes.set(v, []);
    if (pathOrder[pathOrder.length - 1] !== v) pathOrder.push(v);
  }
  return { nodes, current, order: order.length >= 2 ? order : pathOrder, unplaced };
}

export interface WalkEdges {
  /** Drawn edges the packet follows → the direction it takes along them. */
  edges: Map<string, 'forward' | 'reverse'>;
  /** Consecutive lit nodes no drawn edge (or short chain of them) joins: drawn as jumps. */
  jumps: { id: string; source: string; target: string }[];
  /** Nodes passed through on a chain of drawn edges (lit without a number). */
  via: Set<string>;
}

/** Joins consecutive lit nodes: by a drawn edge, else by the shortest chain of at most `maxLen`
 *  drawn edges (a load balancer → its DIP → the remote subnet → the next hop), else by a jump. A
 *  group followed or preceded by a node inside it is not joined (the packet is in both). */
export function walkEdges(
  order: readonly string[],
  edges: readonly Pick<TopoEdge, 'id' | 'source' | 'target'>[],
  isInside: (child: string, group: string) => boolean = () => false,
  maxLen = 3,
): WalkEdges {
  const adj = new Map<string, { to: string; id: string; forward: boolean }[]>();
  const add = (a: string, x: { to: string; id: string; forward: boolean }) => {
    const l = adj.get(a) ?? [];
    l.push(x);
    adj.set(a, l);
  };
  for (const e of edges) {
    add(e.source, { to: e.target, id: e.id, forward: true });
    add(e.target, { to: e.source, id: e.id, forward: false });
  }
  const out: WalkEdges = { edges: new Map(), jumps: [], via: new Set() };
  const chain = (a: string, b: string): { id: string; forward: boolean; node: string }[] | undefined => {
    // Breadth-first, at most maxLen edges; a direct edge is found first.
    let frontier: { node: string; path: { id: string; forward: boolean; node: string }[] }[] = [{ node: a, path: [] }];
    const seen = new Set([a]);
    for (let d = 0; d < maxLen; d++) {
      const next: typeof frontier = [];
      for (const f of frontier) {
        for (const x of adj.get(f.node) ?? []) {
          if (seen.has(x.to)) continue;
          const path = [...f.path, { id: x.id, forward: x.forward, node: x.to }];
          if (x.to === b) return path;
          seen.add(x.to);
          next.push({ node: x.to, path });
        }
      }
      frontier = next;
    }
    return undefined;
  };
  let prev: string | undefined;
  for (const cur of order) {
    if (prev === undefined) {
      prev = cur;
      continue;
    }
    if (cur === prev || isInside(prev, cur)) continue; // same node, or into its own group: stay on the inner node
    if (isInside(cur, prev)) {
      prev = cur;
      continue;
    }
    const c = chain(prev, cur);
    if (c) {
      for (const step of c) {
        if (!out.edges.has(step.id)) out.edges.set(step.id, step.forward ? 'forward' : 'reverse');
        if (step.node !== cur) out.via.add(step.node);
      }
    } else {
      out.jumps.push({ id: `walk-jump:${prev}->${cur}`, source: prev, target: cur });
    }
    prev = cur;
  }
  return out;
}

export type PacketField = 'srcIp' | 'srcPort' | 'dstIp' | 'dstPort' | 'proto' | 'srcMac' | 'dstMac' | 'encap';

export const PACKET_FIELDS: { key: PacketField; label: string }[] = [
  { key: 'srcIp', label: 'src IP' },
  { key: 'srcPort', label: 'src port' },
  { key: 'dstIp', label: 'dst IP' },
  { key: 'dstPort', label: 'dst port' },
  { key: 'proto', label: 'proto' },
  { key: 'srcMac', label: 'src MAC' },
  { key: 'dstMac', label: 'dst MAC' },
  { key: 'encap', label: 'encap' },
];

export function packetValue(p: Packet | undefined, k: PacketField): string {
  if (!p) return '';
  if (k === 'encap') {
    const e = p.encap;
    return e ? `${e.type} ${e.srcIp ? `${e.srcIp} → ` : ''}${e.dstIp}${e.vni !== undefined ? ` VNI ${e.vni}` : ''}` : '';
  }
  const v = p[k];
  return v === undefined ? '' : k === 'proto' ? String(v).toUpperCase() : String(v);
}

/** Rows of the before/after table: the fields either packet has, each marked when the hop changed it. */
export function packetDiff(before: Packet | undefined, after: Packet | undefined): { key: PacketField; label: string; before: string; after: string; changed: boolean }[] {
  return PACKET_FIELDS.map((f) => ({ ...f, before: packetValue(before, f.key), after: packetValue(after, f.key) }))
    .filter((r) => r.before || r.after)
    .map((r) => ({ ...r, changed: !!before && r.before !== r.after }));
}

export function hopChanged(h: WalkHop): boolean {
  return packetDiff(h.before, h.after).some((r) => r.changed);
}

/** A DIP alternative as listed (“10.244.33.3:53”) → the IP the trace request takes. */
export function dipOf(alt: string): string {
  return alt.replace(/:\d+$/, '');
}

const sameFlow = (a: { srcIp: string; dstIp: string; dstPort?: number; proto: string }, b: Flow) =>
  a.srcIp === b.srcIp && a.dstIp === b.dstIp && a.proto === b.proto && (a.dstPort ?? null) === (b.dstPort ?? null);

/** Findings that explain a dropped/unknown walk: those citing the deciding hop's evidence line or
 *  naming its objects, then those whose own walk is this flow. Errors and warnings only. */
export function explainingFindings(t: WalkResult, findings: readonly FindingView[]): FindingView[] {
  if (t.verdict !== 'dropped' && t.verdict !== 'unknown') return [];
  const d = t.hops[t.deciding];
  const ids = new Set((d ? hopNodeIds(d) : []).map((id) => id.toLowerCase()));
  const guid = (id: string) => id.replace(/^[a-z-]+:/, '');
  const guids = new Set([...ids].map(guid));
  const score = (f: FindingView): number => {
    if (f.undecided) return 0;
    let s = 0;
    if (d?.evidence && f.evidence.some((e) => e.file === d.evidence!.file && e.line === d.evidence!.line)) s += 4;
    if (f.refs.some((r) => ids.has(`${r.type}:${r.id.toLowerCase()}`) || guids.has(r.id.toLowerCase()))) s += 2;
    if (f.trace && sameFlow(f.trace, t.flow)) s += 1;
    return s;
  };
  const scored = findings
    .filter((f) => f.severity !== 'info')
    .map((f) => ({ f, s: score(f) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s);
  // A finding that names the deciding hop's line or objects beats one that merely walks the same flow.
  const best = scored[0]?.s ?? 0;
  return scored.filter((x) => best < 2 || x.s >= 2).map((x) => x.f);
}

/** The hop numbers of the packet walk that pass through a node (“3”, “4–6”, “1, 8”). */
export function hopLabel(hops: number[]): string {
  if (!hops.length) return '';
  const runs: string[] = [];
  let start = hops[0];
  let prev = hops[0];
  for (const h of [...hops.slice(1), Infinity]) {
    if (h === prev + 1) {
      prev = h;
      continue;
    }
    runs.push(start === prev ? String(start) : `${start}–${prev}`);
    start = prev = h;
  }
  return runs.join(', ');
}

/**
 * A preset's card: its kind ("pod → service") and, below, where it goes. Most presets share their
 * source, whose long pod name would fill the line and hide what tells them apart, so the second line
 * is the destination; the whole flow stays in the card's title.
 */
export function presetLines(title: string): { name: string; flow?: string } {
  const m = /^(.*?)\s*\((.*)\)$/.exec(title);
  if (!m) return { name: title };
  const at = m[2].indexOf(' → ');
  return { name: m[1], flow: at >= 0 ? `→ ${m[2].slice(at + 3)}` : m[2] };
}
