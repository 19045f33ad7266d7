// Where a walk and the findings meet. The walk engine stays free of checks (it must stay fast and is
// run thousands of times by the bench); its caller joins the two once per walk: every object and rule
// the walk crossed is looked up in the findings, a finding about one of them is attached to the hop it
// concerns, and the verdict carries the worst of them ("delivered, but …"). The walk also sees what no
// check flags: a destination or source pod without a vNIC, a Running pod whose HNS endpoint is gone.
//
// How a finding connects to a walk, most specific first:
//   rule     the finding names a rule the walk matched (by name or by its evidence line), or a CIDR
//            whose range is exactly the IP condition that made a rule match (an ExceptionList typo
//            `10.244.0.0/0` is the `0.0.0.0-255.255.255.255` of the exception rule);
//   service  the finding is about a load balancer / Service (a `VIP:port/PROTO`, a node port, a load
//            balancer ID) and the packet was addressed to it — only then: the pod ports such a finding
//            lists are where a rule is missing, not a reason to flag every walk from those pods;
//   subnet   the finding is about an address range (a remote pod subnet, a required exception) and the
//            packet's destination is in it, coming from a source the finding names (or any source when
//            it names none);
//   object   the finding names an endpoint, a VFP port, a pod (`ns/name`) or an address the packet
//            comes from, is load-balanced to, or is delivered to;
//   trace    the finding's own "walk this packet" flow is this walk.
import type { NodeModel } from '../../parsers/model/types.ts';
import { parseIpv4Ranges } from '../../parsers/vfp/conditions.ts';
import { parseAddress } from '../../parsers/net/address.ts';
import { PORT, readInt } from '../../parsers/text/numbers.ts';
import type { FindingView } from '../findings/types.ts';
import { k8sNames, podIntent } from '../k8s/index.ts';
import { checkContext } from '../checks/context.ts';
import { walkContext } from './context.ts';
import { canonIp, cidrRange } from './ip.ts';
import type { Flow, WalkFinding, WalkHop, WalkResult } from './types.ts';

export interface PathFindings {
  findings: WalkFinding[];
  verdictCaveat?: WalkResult['verdictCaveat'];
}

type Sev = WalkFinding['severity'];
const RANK: Record<Sev, number> = { error: 0, warning: 1, info: 2 };
/** A hop that load-balanced the packet, or found nothing to load-balance it with (its typed effect). */
const isLbHop = (h: WalkHop) => h.effect?.kind === 'lb' || (h.effect?.kind === 'drop' && h.effect.why === 'no-lb');
const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);

/** A title as the middle of a sentence: "Endpoint x has …" → "endpoint x has …" ("OutBoundNAT", "IP" stay). */
export function lowerFirst(s: string): string {
  return /^[A-Z][a-z]+(\s|$)/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** One address on the path and the role it plays there. */
interface Visit {
  hop: number;
  role: 'source' | 'backend' | 'destination' | 'port';
  ip?: string;
  endpointId?: string;
  portKey?: string;
  label: string;
}

/** What the walk crossed, indexed for the lookups below. */
interface PathIndex {
  visits: Visit[];
  /** `vip|port|proto` (proto as tcp/udp/icmp) the packet was addressed to, with the hop it concerns. */
  services: Map<string, number>;
  /** Load balancer IDs (lower case) on the path, with their first hop. */
  lbs: Map<string, number>;
  /** Destination addresses the packet had on the way (the original, after each rewrite). */
  destinations: string[];
  /** Rule names and evidence lines of matched rules. */
  rules: Map<string, number>;
  lines: Map<string, number>;
  /** IP conditions that made a rule match: their ranges, with the hop and the text. */
  conditions: { lo: number; hi: number; hop: number; text: string }[];
  /** The hop that decides where the destination goes: SNAT, encapsulation, routing; else the deciding hop. */
  steering: number;
}

/** What every walk of a model looks up: its pod endpoints, and Running pods of this node without an endpoint (kubectl). */
interface ModelFacts {
  pods: Set<string>;
  lost: Map<string, { namespace: string; name: string }>;
}
const facts = new WeakMap<NodeModel, ModelFacts>();

function factsOf(m: NodeModel): ModelFacts {
  let f = facts.get(m);
  if (!f) {
    f = {
      pods: new Set(checkContext(m).localPods.map((e) => e.id.toLowerCase())),
      lost: new Map(podIntent(m).withoutEndpoint.flatMap((pod) => pod.ips.map((ip) => [canonIp(ip) ?? ip, pod] as const))),
    };
    facts.set(m, f);
  }
  return f;
}

function indexPath(m: NodeModel, r: WalkResult): PathIndex {
  const names = k8sNames(m);
  const ctx = walkContext(m);
  const visits: Visit[] = [];
  const services = new Map<string, number>();
  const lbs = new Map<string, number>();
  const rules = new Map<string, number>();
  const lines = new Map<string, number>();
  const conditions: PathIndex['conditions'] = [];
  const destinations = new Set<string>([r.flow.dstIp]);
  const { pods } = factsOf(m);
  const label = (ip: string | undefined, fallback: string, endpointId?: string) => {
    const pod = ip ? names.podLabel(ip) : undefined;
    const what = endpointId ? (pods.has(endpointId) ? 'pod ' : 'endpoint ') : '';
    return ip ? `${what}${ip}${pod ? ` (${pod})` : ''}` : fallback;
  };
  const epIp = (id: string) => {
    const e = ctx.endpointsById.get(id.toLowerCase());
    return e?.ip ?? e?.ipv6;
  };
  services.set(`${canonIp(r.flow.dstIp)}|${r.flow.dstPort ?? ''}|${r.flow.proto}`, Math.max(0, r.deciding));
  let steering = -1;
  r.hops.forEach((h, i) => {
    if (h.after?.dstIp) destinations.add(h.after.dstIp);
    if (h.rule && h.kind === 'vfp' && !h.flow) {
      if (!rules.has(h.rule)) rules.set(h.rule, i);
      if (h.evidence && !lines.has(`${h.evidence.file}:${h.evidence.line}`)) lines.set(`${h.evidence.file}:${h.evidence.line}`, i);
      for (const c of h.matchedBecause ?? []) {
        if (!/\bIP\b/.test(c.field) || c.result !== 'match') continue;
        for (const x of parseIpv4Ranges(c.condition)) conditions.push({ lo: x.lo, hi: x.hi, hop: i, text: `${c.field} ${c.value} ∈ ${c.condition}` });
      }
    }
    if (h.before && isLbHop(h)) {
      const k = `${canonIp(h.before.dstIp)}|${h.before.dstPort ?? ''}|${h.before.proto}`;
      // The hop that load-balanced (or failed to) is what a service finding is about.
      services.set(k, i);
    }
    if (steering < 0 && ((h.rewrite?.srcIp && !h.flow) || h.rewrite?.encap || h.kind === 'host-route' || (h.effect?.kind === 'drop' && h.effect.why === 'no-encap'))) steering = i;
    for (const n of h.nodes ?? []) {
      const [kind, ...rest] = n.split(':');
      const id = rest.join(':');
      if (kind === 'loadbalancer' && !lbs.has(id.toLowerCase())) lbs.set(id.toLowerCase(), i);
      if (kind === 'endpoint') {
        const ip = epIp(id);
        // The walk's last hop, when it stops at an endpoint (a pod without a vNIC), is at its destination too.
        const atEnd = h.kind === 'deliver' || (h.kind === 'drop' && i === r.hops.length - 1);
        const role: Visit['role'] = h.kind === 'source' ? 'source' : isLbHop(h) ? 'backend' : atEnd ? 'destination' : 'port';
        if (role === 'port' && visits.some((v) => v.endpointId === id.toLowerCase())) continue;
        visits.push({ hop: i, role, ip, endpointId: id.toLowerCase(), portKey: ctx.portOf.get(ctx.endpointsById.get(id.toLowerCase())?.id ?? '')?.key, label: label(ip, `endpoint ${short(id)}`, id.toLowerCase()) });
      }
      if (kind === 'port') visits.push({ hop: i, role: h.kind === 'deliver' ? 'destination' : h.kind === 'source' ? 'source' : 'port', portKey: id.toLowerCase(), label: `port ${short(id)}` });
    }
    if (h.port && h.kind === 'vfp') {
      const key = h.port.toLowerCase();
      if (!visits.some((v) => v.portKey === key)) visits.push({ hop: i, role: 'port', portKey: key, label: `port ${short(h.port)}` });
    }
  });
  // A destination the packet left the node for is on the path too (a pod of another node, an address outside).
  const last = r.hops.length - 1;
  if (!visits.some((v) => v.role === 'destination')) visits.push({ hop: Math.max(0, r.deciding), role: 'destination', ip: r.final.dstIp, label: label(r.final.dstIp, r.final.dstIp) });
  if (!visits.some((v) => v.role === 'source') && last >= 0) visits.push({ hop: 0, role: 'source', ip: r.flow.srcIp, label: label(r.flow.srcIp, r.flow.srcIp) });
  for (const v of visits) if (!v.ip && v.endpointId) v.ip = epIp(v.endpointId);
  return { visits, services, lbs, destinations: [...destinations], rules, lines, conditions, steering: steering >= 0 ? steering : Math.max(0, r.deciding) };
}

const ROLE_WORDS: Record<Visit['role'], string> = {
  source: 'the packet comes from',
  backend: 'the load balancer sends the packet to',
  destination: 'the packet is addressed to',
  port: 'the packet crosses',
};

/** A finding's objects sorted by what they can connect to. */
interface Scope {
  rules: Set<string>;
  cidrs: { text: string; lo: number; hi: number; bits: number }[];
  services: { vip?: string; port: number; proto: string }[];
  lbIds: Set<string>;
  endpoints: Set<string>;
  ports: Set<string>;
  ips: Set<string>;
  pods: Set<string>;
}

// A finding's scope is read once (findings are kept per bundle and joined with every walk).
const scopes = new WeakMap<FindingView, Scope>();

function scopeOf(f: FindingView): Scope {
  let s = scopes.get(f);
  if (!s) {
    s = readScope(f);
    scopes.set(f, s);
  }
  return s;
}

/**
 * A Service a finding names: `VIP:port/PROTO` (IPv4, or `[IPv6]:port/PROTO`) read by parsers/net's
 * address reader, or a node port `port/PROTO`. An address that is not one (`999.1.1.1:80/TCP`) is no
 * Service: read loosely, its VIP was dropped and the finding matched every walk to that node port.
 */
function serviceOf(o: string): Scope['services'][number] | undefined {
  const nodePort = /^(\d{1,5})\/(tcp|udp)$/i.exec(o);
  if (nodePort) {
    const port = readInt(nodePort[1] ?? '', PORT).value;
    return port === undefined ? undefined : { port, proto: (nodePort[2] ?? '').toLowerCase() };
  }
  if (!/:\d{1,5}\s*\/\s*(tcp|udp)$/i.test(o)) return undefined;
  const a = parseAddress(o);
  const vip = a ? canonIp(a.ip) : undefined;
  return a && vip && a.port !== undefined && a.proto && a.proto !== 'icmp' ? { vip, port: a.port, proto: a.proto } : undefined;
}

function readScope(f: FindingView): Scope {
  const s: Scope = { rules: new Set(), cidrs: [], services: [], lbIds: new Set(), endpoints: new Set(), ports: new Set(), ips: new Set(), pods: new Set() };
  for (const ref of f.refs) {
    if (ref.type === 'loadbalancer') s.lbIds.add(ref.id.toLowerCase());
    else if (ref.type === 'endpoint') s.endpoints.add(ref.id.toLowerCase());
    else if (ref.type === 'port') s.ports.add(ref.id.toLowerCase());
  }
  for (const raw of f.objects) {
    // "10.96.0.10:53/UDP (kube-system/kube-dns)": the Service's name in brackets is a label.
    const o = withoutTrailingLabel(raw);
    if (!o) continue;
    const service = serviceOf(o);
    const cidr = /^\d{1,3}(?:\.\d{1,3}){3}\/\d{1,2}$/.test(o) ? cidrRange(o) : undefined;
    if (service) s.services.push(service);
    else if (cidr) s.cidrs.push({ text: o, ...cidr });
    else if (canonIp(o)) s.ips.add(canonIp(o)!);
    else if (/^[a-z0-9][-a-z0-9.]*\/[a-z0-9][-a-z0-9.]*$/.test(o)) s.pods.add(o);
    else s.rules.add(o);
  }
  return s;
}

interface Link {
  hop: number;
  why: string;
}

function sameFlow(t: NonNullable<FindingView['trace']>, f: Flow): boolean {
  return canonIp(t.srcIp) === canonIp(f.srcIp) && canonIp(t.dstIp) === canonIp(f.dstIp) && t.proto === f.proto && (t.dstPort === undefined || t.dstPort === f.dstPort);
}

function connect(m: NodeModel, r: WalkResult, p: PathIndex, f: FindingView): Link | undefined {
  const s = scopeOf(f);
  const names = k8sNames(m);
  // rule: named, or its evidence line cited.
  for (const name of s.rules) {
    const hop = p.rules.get(name);
    if (hop !== undefined) return { hop, why: `the packet matched rule ${name}, which this finding is about` };
  }
  for (const e of f.evidence) {
    const hop = e.line > 0 ? p.lines.get(`${e.file}:${e.line}`) : undefined;
    const h = hop !== undefined ? r.hops[hop] : undefined;
    if (hop !== undefined && h) return { hop, why: `the packet matched ${h.rule} (${e.file}:${e.line}), the rule this finding quotes` };
  }
  for (const c of s.cidrs) {
    const hit = p.conditions.find((x) => x.lo === c.lo && x.hi === c.hi && onNamedPort(m, s, r.hops[x.hop]?.port));
    const hitHop = hit && r.hops[hit.hop];
    // A range wider than any cluster range (an ExceptionList `10.244.0.0/0`) changes the fate only of
    // packets to addresses outside the cluster: a pod, a Service or a node address is excepted from
    // SNAT by the intended entries too, so the typo does not touch that walk.
    if (hit && hitHop && (c.bits >= 8 || !insideCluster(m, r.final.dstIp))) return { hop: hit.hop, why: `${hitHop.rule} matched this packet because ${hit.text}: that range is ${c.text}, the value this finding is about` };
  }
  // service: only when the packet was addressed to it.
  // A key of p.services is `${vip}|${port}|${proto}` (pathIndex): its three parts are always there.
  if (s.services.length || s.lbIds.size) {
    for (const x of s.services) {
      for (const [k, hop] of p.services) {
        const [vip = '', port, proto] = k.split('|');
        if (Number(port) !== x.port || proto !== x.proto) continue;
        if (x.vip ? vip !== x.vip : !walkContext(m).hostIps.has(vip) && !r.hops.some((h) => h.effect?.kind === 'lb' && h.effect.nodePort)) continue;
        return { hop, why: serviceWhy(p, s, `${x.vip ? `${x.vip}:` : 'node port '}${x.port}/${x.proto.toUpperCase()}`, hop) };
      }
    }
    for (const id of s.lbIds) {
      const hop = p.lbs.get(id);
      if (hop !== undefined) return { hop, why: serviceWhy(p, s, `load balancer ${short(id)}`, hop) };
      const lb = walkContext(m).lbById.get(id);
      for (const [k, h] of p.services) {
        const [vip, port, proto = ''] = k.split('|');
        if (lb?.vips.some((v) => canonIp(v) === vip) && lb.ports.some((x) => x.externalPort === Number(port) && (x.protocol === 17 ? 'udp' : 'tcp') === proto)) return { hop: h, why: serviceWhy(p, s, `${vip}:${port}/${proto.toUpperCase()}`, h) };
      }
    }
    return undefined;
  }
  // subnet: the destination in a range the finding names, from a source it names (if it names any).
  const wide = s.cidrs.filter((c) => c.bits >= 8);
  if (wide.length) {
    const src = p.visits.filter((v) => v.role === 'source');
    // Only local endpoints and ports can be sources (remote endpoints a finding lists are destinations).
    const namesSources = s.ports.size > 0 || [...s.endpoints].some((id) => !walkContext(m).endpointsById.get(id)?.isRemote);
    const fromNamed = !namesSources || src.some((v) => (v.endpointId && s.endpoints.has(v.endpointId)) || (v.portKey && (s.ports.has(v.portKey) || s.endpoints.has(v.portKey))));
    if (fromNamed) {
      for (const c of wide) {
        const dst = p.destinations.find((d) => {
          const n = cidrRange(d);
          return n && n.lo >= c.lo && n.lo <= c.hi;
        });
        if (dst) return { hop: p.steering, why: `the destination ${dst} is in ${c.text}${namesSources ? ', and the packet comes from a pod this finding names' : ''}` };
      }
    }
  }
  // object: an endpoint, port, pod or address on the path (on the deciding hop when it is one of them).
  // The packet's own addresses count even where no endpoint stands for them (a host address).
  const src = canonIp(r.flow.srcIp);
  if (src && s.ips.has(src) && !p.visits.some((v) => v.role === 'source' && v.ip && canonIp(v.ip) === src)) return { hop: 0, why: `${ROLE_WORDS.source} ${r.flow.srcIp}, which this finding is about` };
  // A finding about a range on some endpoints (an exception missing or mistyped on their ports, a
  // remote subnet without its route) is about packets to that range, which the links above decide:
  // the endpoints it lists are where the range is programmed, so crossing one does not put it on a path.
  if (s.cidrs.length > 0) return f.trace && sameFlow(f.trace, r.flow) ? { hop: Math.max(0, r.deciding), why: 'this is the packet the finding offers to walk' } : undefined;
  const hits = p.visits.filter((v) => {
    const pod = v.ip ? names.podLabel(v.ip) : undefined;
    return (v.endpointId && s.endpoints.has(v.endpointId)) || (v.portKey && (s.ports.has(v.portKey) || s.endpoints.has(v.portKey))) || (v.ip && s.ips.has(canonIp(v.ip) ?? '')) || (pod && s.pods.has(pod));
  });
  // Where the object plays its part: the deciding hop, else where the packet comes from, is sent, is delivered.
  const order: Visit['role'][] = ['source', 'backend', 'destination', 'port'];
  const v = hits.find((x) => x.hop === r.deciding) ?? [...hits].sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || a.hop - b.hop)[0];
  if (v) return { hop: v.hop, why: `${ROLE_WORDS[v.role]} ${v.label}, which this finding is about` };
  // trace: the finding's own example walk.
  if (f.trace && sameFlow(f.trace, r.flow)) return { hop: Math.max(0, r.deciding), why: 'this is the packet the finding offers to walk' };
  return undefined;
}

/** The rule's port is one the finding names, or the finding names no local port or endpoint (a
 * drift finding about port X is not about the same range matched on port Y). */
function onNamedPort(m: NodeModel, s: Scope, port: string | undefined): boolean {
  const named = namedPorts(m, s);
  if (!named || !port) return true;
  return named.has(port.toLowerCase());
}

// The ports a finding names, directly or by its local endpoints, per bundle: asked for each condition
// of each walk the finding meets.
const portsNamed = new WeakMap<NodeModel, WeakMap<Scope, Set<string> | null>>();

/** The port keys (lower case) a finding's scope names; null when it names no local port or endpoint. */
function namedPorts(m: NodeModel, s: Scope): Set<string> | null {
  let perScope = portsNamed.get(m);
  if (!perScope) portsNamed.set(m, (perScope = new WeakMap()));
  const known = perScope.get(s);
  if (known !== undefined) return known;
  const ctx = walkContext(m);
  const namesLocal = s.ports.size > 0 || [...s.endpoints].some((id) => !ctx.endpointsById.get(id)?.isRemote);
  let out: Set<string> | null = null;
  if (namesLocal) {
    out = new Set([...s.ports, ...s.endpoints]);
    for (const id of s.endpoints) {
      const key = ctx.portOf.get(ctx.endpointsById.get(id)?.id ?? '')?.key.toLowerCase();
      if (key) out.add(key);
    }
  }
  perScope.set(s, out);
  return out;
}

/** An address the cluster's own ranges hold: a pod (local or remote), a Service VIP, a node address,
 * a network's pod subnet or a remote pod subnet. */
function insideCluster(m: NodeModel, ip: string): boolean {
  const ctx = walkContext(m);
  const a = canonIp(ip);
  if (!a) return false;
  if (ctx.local.has(a) || ctx.remote.has(a) || ctx.vips.has(a) || ctx.hostIps.has(a) || ctx.hns.remoteSubnetFor(a)) return true;
  const n = cidrRange(a);
  if (!n) return false;
  return podSubnets(m).some((r) => n.lo >= r.lo && n.lo <= r.hi);
}

const subnetRanges = new WeakMap<NodeModel, { lo: number; hi: number }[]>();

/** The networks' pod subnets as ranges, read once per bundle. */
function podSubnets(m: NodeModel): { lo: number; hi: number }[] {
  let out = subnetRanges.get(m);
  if (!out) {
    out = (m.networks ?? []).flatMap((net) => net.subnets.map((sub) => cidrRange(sub.prefix)).filter((r): r is NonNullable<typeof r> => !!r));
    subnetRanges.set(m, out);
  }
  return out;
}

function serviceWhy(p: PathIndex, s: Scope, what: string, hop: number): string {
  const backend = p.visits.find((v) => v.role === 'backend' && v.hop >= hop);
  const named = backend && ((backend.ip && s.ips.has(canonIp(backend.ip) ?? '')) || (backend.endpointId && s.endpoints.has(backend.endpointId)));
  return `the packet is addressed to ${what}, which this finding is about${named ? `, and the backend this walk reached, ${backend!.label}, is one it names` : ''}`;
}

/** What the walk can see about its own path that no check flagged. */
function walkObservations(m: NodeModel, r: WalkResult, p: PathIndex, findings: readonly FindingView[]): WalkFinding[] {
  const out: WalkFinding[] = [];
  const ctx = walkContext(m);
  const counts = new Map<string, number>();
  const add = (w: Omit<WalkFinding, 'key'>) => {
    const n = (counts.get(w.id) ?? 0) + 1;
    counts.set(w.id, n);
    out.push({ key: `walk:${w.id}#${n}`, ...w });
  };
  // A check that already says it about this object speaks for itself (its finding is on the path).
  const flagged = (v: Visit) => findings.some((f) => f.id === 'endpoint-without-vnic' && f.refs.some((x) => x.type === 'endpoint' && x.id.toLowerCase() === v.endpointId));
  const podFlagged = (label: string) => findings.some((f) => f.id === 'k8s-pod-no-endpoint' && f.objects.includes(label));
  const pods = m.ip ? factsOf(m).pods : new Set<string>();
  for (const v of p.visits) {
    if (!v.endpointId || !pods.has(v.endpointId) || flagged(v)) continue;
    const ep = ctx.endpointsById.get(v.endpointId);
    if (!ep || ctx.adapterOf.has(ep.id)) continue;
    if (v.role === 'source') {
      add({ id: 'source-without-vnic', severity: 'error', hop: v.hop, title: `Source ${v.label} has no vNIC in any compartment`, why: `HNS has endpoint ${short(ep.id)} for ${v.label}, but no adapter in ip.txt has its address: no pod network stack sends this packet` });
    } else if (v.role === 'destination' || v.role === 'backend') {
      add({ id: v.role === 'backend' ? 'backend-without-vnic' : 'destination-without-vnic', severity: 'error', hop: v.hop, title: `${v.role === 'backend' ? 'Backend' : 'Destination'} ${v.label} has no vNIC in any compartment`, why: `${ROLE_WORDS[v.role]} endpoint ${short(ep.id)}, but no adapter in ip.txt has its address: nothing in a pod receives it` });
    }
  }
  // Running pods of this node (kubectl) whose HNS endpoint is gone: the walk cannot reach them as pods.
  const { lost } = factsOf(m);
  if (lost.size) {
    const dst = canonIp(r.final.dstIp) ?? r.final.dstIp;
    const dpod = lost.get(dst);
    if (dpod && !ctx.local.has(dst) && !podFlagged(`${dpod.namespace}/${dpod.name}`)) {
      add({ id: 'destination-pod-without-endpoint', severity: 'warning', hop: Math.max(0, r.deciding), title: `Destination ${dst} is Running pod ${dpod.namespace}/${dpod.name} of this node, but HNS has no endpoint for it`, why: `Kubernetes runs ${dpod.namespace}/${dpod.name} on this node with ${dst}, but no local HNS endpoint has that address, so the packet cannot be delivered to it (its network was removed while the pod kept running)` });
    }
    const src = canonIp(r.flow.srcIp) ?? r.flow.srcIp;
    const spod = lost.get(src);
    if (spod && !ctx.local.has(src) && !podFlagged(`${spod.namespace}/${spod.name}`)) {
      add({ id: 'source-pod-without-endpoint', severity: 'warning', hop: 0, title: `Source ${src} is Running pod ${spod.namespace}/${spod.name} of this node, but HNS has no endpoint for it`, why: `the pod has no HNS endpoint, so it has no network to send from; the walk treats ${src} as an address outside the node` });
    }
  }
  return out;
}

/** The findings a walk crosses, each on the hop it concerns, and the caveat its verdict carries. */
export function findingsOnPath(m: NodeModel, r: WalkResult, findings: readonly FindingView[]): PathFindings {
  if (!r.hops.length) return { findings: [] };
  const p = indexPath(m, r);
  const out: WalkFinding[] = [];
  for (const f of findings) {
    const link = connect(m, r, p, f);
    if (link) out.push({ key: f.key, id: f.id, severity: f.severity as Sev, title: f.title, hop: link.hop, why: link.why });
  }
  out.push(...walkObservations(m, r, p, findings));
  out.sort((a, b) => (a.hop ?? -1) - (b.hop ?? -1) || RANK[a.severity] - RANK[b.severity]);
  const exemplified = new Set(findings.filter((f) => f.trace && sameFlow(f.trace, r.flow)).map((f) => f.key));
  return { findings: out, verdictCaveat: caveatOf(r, out, exemplified) };
}

function caveatOf(r: WalkResult, fs: WalkFinding[], exemplified: Set<string>): WalkResult['verdictCaveat'] {
  const serious = fs.filter((f) => f.severity === 'error' || f.severity === 'warning');
  if (!serious.length) return undefined;
  // The worst first; among equals a finding whose own "walk this packet" is this walk (so the walk
  // opened from a finding names it), then the one on the deciding hop, then the latest on the path.
  const by = (x: boolean) => (x ? 0 : 1);
  const [best] = [...serious].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || by(exemplified.has(a.key)) - by(exemplified.has(b.key)) || by(a.hop === r.deciding) - by(b.hop === r.deciding) || (b.hop ?? -1) - (a.hop ?? -1),
  );
  if (!best) return undefined;
  const more = serious.length - 1;
  return {
    severity: best.severity as 'error' | 'warning',
    text: `${lowerFirst(best.title)}${best.hop !== undefined ? ` (hop ${best.hop + 1})` : ''}${more ? `; ${more} more finding${more > 1 ? 's' : ''} on this path` : ''}`,
  };
}

/** The walk with its findings joined (and its reply's, when it has one). */
export function withPathFindings(m: NodeModel, r: WalkResult, findings: readonly FindingView[]): WalkResult {
  const { findings: fs, verdictCaveat } = findingsOnPath(m, r, findings);
  const out: WalkResult = { ...r, findings: fs };
  if (verdictCaveat) out.verdictCaveat = verdictCaveat;
  else delete out.verdictCaveat;
  if (r.reply) out.reply = withPathFindings(m, r.reply, findings);
  return out;
}

/** "x (label)" → "x": the last bracketed part when it ends the text, found without a regular
 * expression (one retried at every blank and bracket is quadratic in crafted object names). */
function withoutTrailingLabel(raw: string): string {
  const t = raw.trim();
  if (!t.endsWith(')')) return t;
  const open = t.lastIndexOf('(');
  if (open < 0 || t.indexOf(')', open) !== t.length - 1) return t;
  return t.slice(0, open).trim();
}
