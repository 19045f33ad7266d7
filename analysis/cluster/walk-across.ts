// A packet walked across the nodes of a cluster: the walk on the source node (walkFlow), and when it
// leaves the node, the node that receives it — by the provider address it is tunnelled to (overlay),
// the next hop it is routed to (host routes), or, on plugins whose pods are cloud addresses, the node
// that holds the destination (the fabric delivers it there: inferred) — continues with that node's
// uplink, decapsulation, the destination port's IN layers and delivery. The reply comes back the same
// way, each node's half through the flows its own request half created. Every hop names its node and
// its bundle; the hand-over between two nodes is a hop of its own.
import type { Flow, Packet, WalkCaveat, WalkFinding, WalkHop, WalkResult, Verdict } from '../walk/types.ts';
import { walkFlow, walkReply } from '../walk/engine.ts';
import { walkContext } from '../walk/context.ts';
import { canonIp } from '../walk/ip.ts';
import { reverse, sameTuple } from '../walk/flows.ts';
import { factsOf } from '../platform/index.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { ClusterModel, ClusterNode } from './types.ts';

export interface StitchedHop extends Omit<WalkHop, 'kind'> {
  kind: WalkHop['kind'] | 'handover';
  /** The node whose bundle this hop was read from. */
  node: string;
  bundle: string;
  /** Which leg (node visit) of the walk it belongs to. */
  leg: number;
}

/** How the packet went from one node to the next. */
export interface Handover {
  from: string;
  /** The node that receives it, when an open bundle is that node. */
  to?: string;
  via: 'vxlan' | 'route' | 'fabric';
  /** The provider address, next hop or destination that names the receiver. */
  address: string;
  /** The packet as it crosses (with its outer header when encapsulated). */
  packet: Packet;
  resolved: boolean;
  inferred: boolean;
  /** The walk cannot go on: the packet is lost here (a tunnel to an address no node has). */
  lost?: boolean;
  note: string;
  source?: string;
}

export interface StitchedLeg {
  node: string;
  bundle: string;
  walk: WalkResult;
}

export interface StitchedCaveat extends Omit<WalkCaveat, 'kind'> {
  kind: WalkCaveat['kind'] | 'handover';
  node?: string;
}

/** A finding on a walk across nodes: `hop` indexes the stitched walk's hops; `node` is whose it is. */
export interface StitchedFinding extends WalkFinding {
  /** The node the finding is about (for a finding across nodes: the odd node the packet crossed). */
  node: string;
  /** True for a finding across nodes (its key is `cluster:<index in the cluster's findings>`). */
  acrossNodes?: boolean;
}

export interface StitchedWalk {
  kind: 'forward' | 'reply';
  flow: Flow;
  verdict: Verdict;
  reason: string;
  legs: StitchedLeg[];
  handovers: Handover[];
  hops: StitchedHop[];
  /** Index in `hops` of the hop that decided the verdict. */
  deciding: number;
  final: WalkResult['final'];
  caveats: StitchedCaveat[];
  dependsOnUnmodelled: boolean;
  inferred: boolean;
  /** The findings on its path, each on the hop it concerns (withAcrossFindings; absent when not joined). */
  findings?: StitchedFinding[];
  /** The worst error or warning on the path: "delivered, but <text>" (see WalkResult.verdictCaveat). */
  verdictCaveat?: WalkResult['verdictCaveat'];
  /** The answer, walked back across the same nodes (`reply: true`). */
  reply?: StitchedWalk;
}

export interface AcrossOptions {
  reply?: boolean;
  explain?: boolean;
  /** Node visits at most (a routing loop between nodes stops here). */
  maxLegs?: number;
}

const FABRIC_NOTE = 'the cloud network routes pod addresses to the node whose NIC holds them; its routing is in no bundle';
/**
 * Antrea carries pod traffic between nodes in its OVS pipeline: OVS is the forwarding extension of the
 * HNS network's vSwitch, and peers are reached through a Geneve (or VXLAN/GRE/STT) tunnel, unless it runs
 * NoEncap (antrea-io/antrea docs/design/windows-design.md "Design"; docs/design/ovs-pipeline.md "peer
 * Node"). The host route via antrea-gw0 names the peer, but the OVS flows and the tunnel are in no
 * CollectLogs bundle: the hand-over is inferred from the route.
 */
const ANTREA_NOTE = 'Antrea carries it in its OVS bridge (a Geneve tunnel to the peer in its default Encap mode); the OVS flows and tunnel are not in the bundle, so the hand-over is inferred from the host route';
const ANTREA_SOURCE = 'antrea-io/antrea docs/design/windows-design.md; docs/design/ovs-pipeline.md';

/** The node whose bundle has this address as a local pod or one of the host's own addresses. */
function sourceNodes(c: ClusterModel, ip: string): ClusterNode[] {
  const canon = canonIp(ip) ?? ip;
  return c.nodes.filter((n) => {
    if (!n.model) return false;
    const ctx = walkContext(n.model);
    return ctx.local.has(canon) || ctx.hostIps.has(canon);
  });
}

/** Where a forwarded leg goes next. */
export function handoverOf(c: ClusterModel, from: ClusterNode, leg: WalkResult): Handover {
  const fin = leg.final;
  const encHop = [...leg.hops].reverse().find((h) => h.after?.encap);
  const enc = encHop?.after?.encap;
  if (enc) {
    const packet: Packet = { srcIp: fin.srcIp, dstIp: fin.dstIp, srcPort: fin.srcPort, dstPort: fin.dstPort, proto: fin.proto, encap: { ...enc, srcIp: enc.srcIp ?? from.identity.providerAddress ?? from.identity.nodeIp } };
    const to = c.nodeOfAddress(enc.dstIp);
    const owner = c.nodeOfPod(fin.dstIp);
    const tunnel = `${enc.type}${enc.vni !== undefined ? ` VNI ${enc.vni}` : ''} to provider address ${enc.dstIp}`;
    if (to) {
      return {
        from: from.id,
        to: to.id,
        via: 'vxlan',
        address: enc.dstIp,
        packet,
        resolved: true,
        inferred: false,
        note: `${tunnel}: ${to.id}${owner && owner !== to ? `; but ${fin.dstIp} lives on ${owner.id}` : ''}`,
      };
    }
    if (owner) {
      const at = owner.identity.providerAddress ?? owner.identity.nodeIp ?? '?';
      return {
        from: from.id,
        via: 'vxlan',
        address: enc.dstIp,
        packet,
        resolved: false,
        inferred: true,
        lost: true,
        note: `${tunnel}, which no open node has; ${fin.dstIp} lives on ${owner.id} at ${at}: the tunnel leads to a stale provider address and the packet is lost`,
      };
    }
    return { from: from.id, via: 'vxlan', address: enc.dstIp, packet, resolved: false, inferred: false, note: `${tunnel}: no open bundle is that node (open its bundle to follow the packet)` };
  }
  const packet: Packet = { srcIp: fin.srcIp, dstIp: fin.dstIp, srcPort: fin.srcPort, dstPort: fin.dstPort, proto: fin.proto };
  const next = leg.egress.nextHop;
  const viaRoute = next ? c.nodeOfAddress(next) : undefined;
  if (viaRoute && viaRoute !== from) {
    const antrea = from.identity.plugin === 'antrea';
    return {
      from: from.id,
      to: viaRoute.id,
      via: 'route',
      address: next!,
      packet: { ...packet, dstMac: viaRoute.identity.hostMac },
      resolved: true,
      inferred: antrea,
      note: `routed via ${next}: ${viaRoute.id}${antrea ? `; ${ANTREA_NOTE}` : ''}`,
      ...(antrea ? { source: ANTREA_SOURCE } : {}),
    };
  }
  const owner = c.nodeOfPod(fin.dstIp) ?? c.nodeOfAddress(fin.dstIp);
  if (owner && owner !== from) {
    if (from.identity.crossNode === 'fabric' || (next && canonIp(next) === canonIp(fin.dstIp))) {
      const facts = factsOf(from.identity.plugin);
      return {
        from: from.id,
        to: owner.id,
        via: 'fabric',
        address: fin.dstIp,
        packet,
        resolved: true,
        inferred: true,
        note: `leaves via ${next ?? 'the default route'}; ${fin.dstIp} is on ${owner.id}: ${FABRIC_NOTE}`,
        source: facts?.crossNode.source,
      };
    }
    const at = owner.identity.nodeIp ?? '?';
    return {
      from: from.id,
      via: 'route',
      address: next ?? fin.dstIp,
      packet,
      resolved: false,
      inferred: true,
      note: `${fin.dstIp} lives on ${owner.id} (${at}), but this node sends it to ${next ?? 'its default route'}, not to ${at}: it arrives only if the network beyond routes that pod address (no route for its pod subnet here)`,
    };
  }
  return { from: from.id, via: 'route', address: next ?? fin.dstIp, packet, resolved: false, inferred: false, note: `leaves the open nodes via ${next ?? 'the default route'}: no open bundle holds ${fin.dstIp}` };
}

function handoverHop(h: Handover, leg: number, from: ClusterNode, evidence: WalkHop['evidence']): StitchedHop {
  const what = h.via === 'vxlan' ? `VXLAN to ${h.address}` : h.via === 'route' ? `routed via ${h.address}` : 'cloud fabric';
  return {
    at: `${h.from} → ${h.to ?? '?'}`,
    kind: 'handover',
    action: h.resolved ? `hand over (${what})` : h.lost ? `lost (${what})` : `leaves the open nodes (${what})`,
    note: h.note,
    inferred: h.inferred || undefined,
    evidence,
    after: h.packet,
    node: from.id,
    bundle: from.bundle,
    leg,
  };
}

interface Chain {
  legs: StitchedLeg[];
  nodes: ClusterNode[];
  handovers: Handover[];
  hops: StitchedHop[];
  caveats: StitchedCaveat[];
  /** Node and packet of every arrival (a loop sends the same packet to the same node again). */
  seen: Set<string>;
  /** A conclusion of the stitching itself is an inference (a reply that does not retrace the request). */
  inferred?: boolean;
  end?: { verdict: Verdict; reason: string; deciding: number };
}

/** The line of the receiving node's own bundle that holds an address of its own (ip.txt), or its pod network's line naming it. */
function ownAddressLine(node: ClusterNode, ip: string): SourceRef | undefined {
  const m = node.model;
  if (!m) return undefined;
  const c = canonIp(ip) ?? ip;
  for (const comp of m.ip?.compartments ?? []) for (const a of comp.adapters) for (const x of a.ipv4) if ((canonIp(x.address) ?? x.address) === c) return x.src;
  const src = node.identity.src;
  if (src && m.text) {
    const hit = m.text.find(src.file, src.line, (t) => t.includes(ip), 400);
    if (hit) return { file: src.file, line: hit.line };
  }
  return undefined;
}

/** The line of a local endpoint of the node that holds this address (within the endpoint's object). */
function endpointLine(node: ClusterNode, ip: string): SourceRef | undefined {
  const c = canonIp(ip) ?? ip;
  const e = node.model?.endpoints?.find((x) => !x.isRemote && (canonIp(x.ip) ?? x.ip) === c);
  if (!e) return undefined;
  const hit = node.model?.text?.find(e.src.file, e.src.line, (t) => t.includes(ip), 400);
  return hit ? { file: e.src.file, line: hit.line } : e.src;
}

/**
 * Arrival hops the single-node walk leaves without a line, cited from the receiving node's own bundle:
 * where the packet arrives, the line that makes it this node's (its provider address on its pod
 * network, the address it is routed to in ip.txt, or — from the cloud fabric — the destination's
 * endpoint); where the vSwitch switches it to a local pod, that pod's endpoint line.
 */
function citeOwnLines(node: ClusterNode, walk: WalkResult, h: WalkHop, arrival?: Handover): SourceRef | undefined {
  if (h.evidence) return h.evidence;
  if (h.kind === 'source' && arrival && /arrives? on the uplink$/.test(h.action)) {
    if (arrival.via === 'fabric') return endpointLine(node, arrival.packet.dstIp);
    return ownAddressLine(node, arrival.packet.encap?.dstIp ?? arrival.address);
  }
  if (h.kind === 'vswitch' && h.action === 'switch') return endpointLine(node, walk.final.dstIp);
  return undefined;
}

function addLeg(ch: Chain, node: ClusterNode, walk: WalkResult): void {
  const leg = ch.legs.length;
  const arrival = leg > 0 ? ch.handovers[ch.handovers.length - 1] : undefined;
  ch.legs.push({ node: node.id, bundle: node.bundle, walk });
  ch.nodes.push(node);
  for (const h of walk.hops) {
    const evidence = citeOwnLines(node, walk, h, arrival);
    ch.hops.push({ ...h, ...(evidence ? { evidence } : {}), node: node.id, bundle: node.bundle, leg });
  }
  for (const cv of walk.caveats ?? []) ch.caveats.push({ ...cv, node: node.id });
}

/** Follows a forwarded leg from node to node until it is delivered, dropped or leaves the open nodes. */
function follow(c: ClusterModel, ch: Chain, maxLegs: number, nextLeg: (node: ClusterNode, h: Handover, legIndex: number) => WalkResult | undefined): void {
  for (;;) {
    const last = ch.legs.at(-1)?.walk;
    const node = ch.nodes.at(-1);
    // Followed after a first leg (addLeg); without one there is nothing to follow.
    if (!last || !node) return;
    const offset = ch.hops.length - last.hops.length;
    if (last.verdict !== 'forwarded') {
      ch.end = { verdict: last.verdict, reason: `on ${node.id}: ${last.reason}`, deciding: last.deciding >= 0 ? offset + last.deciding : -1 };
      return;
    }
    const h = handoverOf(c, node, last);
    ch.handovers.push(h);
    const evidence = last.hops[last.deciding]?.evidence;
    ch.hops.push(handoverHop(h, ch.legs.length - 1, node, evidence));
    const hi = ch.hops.length - 1;
    if (h.inferred) ch.caveats.push({ kind: 'handover', hop: hi, node: node.id, text: h.note, source: h.source });
    const to = h.to ? c.byId(h.to) : undefined;
    if (!to) {
      ch.end = h.lost ? { verdict: 'dropped', reason: h.note, deciding: hi } : { verdict: 'forwarded', reason: `from ${node.id}: ${h.note}`, deciding: offset + last.deciding };
      return;
    }
    if (!to.model) {
      ch.end = { verdict: 'forwarded', reason: `to ${to.id}, whose bundle was summarised but not kept: walk it with the bundles loaded whole`, deciding: hi };
      return;
    }
    // A node may see the packet again (a NodePort on node B whose backend is back on node A); the same
    // packet arriving at the same node twice is a loop.
    const key = `${to.id}|${h.packet.srcIp}|${h.packet.srcPort ?? ''}|${h.packet.dstIp}|${h.packet.dstPort ?? ''}`;
    if (ch.seen.has(key) || ch.legs.length >= maxLegs) {
      const text = ch.seen.has(key) ? `the same packet reaches ${to.id} again: a routing loop between nodes` : `the walk stops after ${maxLegs} nodes`;
      ch.caveats.push({ kind: 'handover', hop: hi, node: node.id, text });
      ch.end = { verdict: ch.seen.has(key) ? 'dropped' : 'unknown', reason: `${text} (${[...ch.nodes.map((n) => n.id), to.id].join(' → ')})`, deciding: hi };
      return;
    }
    ch.seen.add(key);
    const walk = nextLeg(to, h, ch.legs.length);
    if (!walk) {
      ch.end = { verdict: 'unknown', reason: `the walk on ${to.id} could not start`, deciding: hi };
      return;
    }
    addLeg(ch, to, walk);
  }
}

function finish(flow: Flow, kind: StitchedWalk['kind'], ch: Chain): StitchedWalk {
  const lastLeg = ch.legs[ch.legs.length - 1]?.walk;
  const end = ch.end ?? { verdict: 'unknown' as Verdict, reason: 'no walk', deciding: -1 };
  return {
    kind,
    flow,
    verdict: end.verdict,
    reason: end.reason,
    legs: ch.legs,
    handovers: ch.handovers,
    hops: ch.hops,
    deciding: end.deciding,
    final: lastLeg?.final ?? { srcIp: flow.srcIp, dstIp: flow.dstIp, srcPort: flow.srcPort, dstPort: flow.dstPort, proto: flow.proto },
    caveats: ch.caveats,
    dependsOnUnmodelled: ch.legs.some((l) => l.walk.dependsOnUnmodelled),
    inferred: !!ch.inferred || ch.legs.some((l) => l.walk.inferred) || ch.handovers.some((h) => h.inferred),
  };
}

/** The flow a node sees arrive; a backend the user forced (`dip`) stays forced on every node. */
const arrivingFlow = (p: Packet, proto: Flow['proto'], dip?: string): Flow => ({ srcIp: p.srcIp, dstIp: p.dstIp, srcPort: p.srcPort, dstPort: p.dstPort, proto, ...(dip ? { dip } : {}) });

/** Walks a flow across the open nodes of a cluster (and its reply, with `reply: true`). */
export function walkAcross(c: ClusterModel, flow: Flow, opts: AcrossOptions = {}): StitchedWalk {
  const maxLegs = opts.maxLegs ?? 4;
  const explain = !!opts.explain;
  const starts = sourceNodes(c, flow.srcIp);
  const ch: Chain = { legs: [], nodes: [], handovers: [], hops: [], caveats: [], seen: new Set() };
  const [start] = starts;
  if (!start) {
    const owner = c.nodeOfPod(flow.srcIp);
    ch.end = {
      verdict: 'unknown',
      reason: owner
        ? `${flow.srcIp} is in ${owner.id}'s pod subnet, but no endpoint of its bundle has that address`
        : `no open bundle has ${flow.srcIp} as a pod or host address (open: ${c.nodes.map((n) => n.id).join(', ')})`,
      deciding: -1,
    };
    return finish(flow, 'forward', ch);
  }
  if (starts.length > 1) ch.caveats.push({ kind: 'handover', node: start.id, text: `${flow.srcIp} is an address of ${starts.map((n) => n.id).join(' and ')}; the walk starts on ${start.id}` });
  // Bundles of several clusters: the packet stays in the source's cluster (pod and node addresses
  // repeat between clusters; another cluster's node that has the address is not where it goes).
  const own = c.parts.length > 1 ? c.parts.find((p) => p.byId(start.id)) : undefined;
  if (own) {
    ch.caveats.push({ kind: 'handover', node: start.id, text: `the bundles are of ${c.parts.length} clusters: the walk stays in ${start.id}'s (${own.nodes.map((n) => n.id).join(', ')})` });
    c = own;
  }
  addLeg(ch, start, walkFlow(start.model!, flow, { explain }));
  follow(c, ch, maxLegs, (to, h) => walkFlow(to.model!, arrivingFlow(h.packet, flow.proto, flow.dip), { explain, arrive: { packet: h.packet, from: h.from } }));
  const out = finish(flow, 'forward', ch);
  if (opts.reply) out.reply = replyAcross(c, out, explain);
  return out;
}

/** The reply: from the last node the request reached back through each node it crossed, last first. */
function replyAcross(c: ClusterModel, fwd: StitchedWalk, explain: boolean): StitchedWalk {
  const nodes = fwd.legs.map((l) => c.byId(l.node)!);
  const ch: Chain = { legs: [], nodes: [], handovers: [], hops: [], caveats: [], seen: new Set() };
  const lastFwd = fwd.legs[fwd.legs.length - 1]?.walk;
  const replyFlow: Flow = { srcIp: fwd.final.dstIp, dstIp: fwd.final.srcIp, srcPort: fwd.final.dstPort, dstPort: fwd.final.srcPort, proto: fwd.flow.proto };
  const lastNode = nodes.at(-1);
  if (!lastFwd || !lastNode || fwd.verdict !== 'delivered') {
    ch.end = { verdict: 'unknown', reason: `the request is ${fwd.verdict === 'dropped' ? 'dropped' : fwd.verdict === 'forwarded' ? 'not followed to its destination' : 'not known to arrive'}: there is no reply to walk`, deciding: -1 };
    return finish(replyFlow, 'reply', ch);
  }
  let k = nodes.length - 1;
  addLeg(ch, lastNode, walkReply(lastNode.model!, lastFwd, { explain }));
  follow(c, ch, fwd.legs.length, (to, h) => {
    k--;
    const back = nodes[k];
    const backLeg = fwd.legs[k];
    if (!back || !backLeg || back !== to) {
      ch.caveats.push({ kind: 'reply-mismatch', node: h.from, text: `the reply goes to ${to.id}, not to ${back ? back.id : 'the node the request came from'}: it does not retrace the request` });
      // Walked on that node all the same, as a packet of its own.
      return walkFlow(to.model!, arrivingFlow(h.packet, fwd.flow.proto), { explain, arrive: { packet: h.packet, from: h.from } });
    }
    return walkReply(to.model!, backLeg.walk, { explain, arrive: { packet: h.packet, from: h.from } });
  });
  // The source takes the answer only if it retraced every node of the request (the state that rewrote
  // the request lives there) and arrives as its own request reversed.
  const first = fwd.legs[0]?.walk;
  const asSent = { srcIp: fwd.flow.srcIp, dstIp: fwd.flow.dstIp, srcPort: first?.hops[0]?.after?.srcPort ?? fwd.flow.srcPort, dstPort: fwd.flow.proto === 'icmp' ? undefined : fwd.flow.dstPort, proto: fwd.flow.proto };
  const expected = reverse(asSent);
  const end = ch.end;
  const last = ch.legs.at(-1)?.walk;
  const endedOn = ch.nodes.at(-1);
  if (end && last && endedOn && (end.verdict === 'delivered' || end.verdict === 'forwarded')) {
    const retraced = ch.legs.length === fwd.legs.length && endedOn === nodes[0];
    if (!retraced || !sameTuple(last.final, expected)) {
      const f = last.final;
      const at = (ip: string, port?: number) => `${ip}${port !== undefined ? `:${port}` : ''}`;
      const skipped = [...new Set(nodes.slice(0, nodes.length - ch.legs.length).filter((n) => n !== endedOn).map((n) => n.id))];
      const got = `${at(f.srcIp, f.srcPort)} → ${at(f.dstIp, f.dstPort)}`;
      const want = `${at(expected.srcIp, expected.srcPort)} → ${at(expected.dstIp, expected.dstPort)}`;
      const text = !retraced
        ? `the answer ends on ${endedOn.id} without going back through ${skipped.join(', ') || 'the nodes the request crossed'}, where the request was translated: it is ${got}, not the answer ${want} the source's connection expects`
        : `the source expects ${want} but gets ${got}`;
      ch.caveats.push({ kind: 'reply-mismatch', node: endedOn.id, text });
      ch.end = { verdict: 'dropped', reason: `asymmetric return: ${text}`, deciding: end.deciding };
      if (!retraced) ch.inferred = true;
    }
  }
  return finish(replyFlow, 'reply', ch);
}
