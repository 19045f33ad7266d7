// The packet walk: from the source (a pod's compartment, the host, or the wire) through its VFP
// port's OUT groups, the vSwitch, and then either the destination port's IN groups (delivered) or
// the node's routing table and the uplink (forwarded). Every hop cites its line; every assumption is
// marked inferred with its reason; a rule whose effect cannot be modelled flags the verdict; a
// missing file makes the verdict "unknown", never a guess. The reply is a walk of its own
// (walkReply): it starts where the request ended and crosses the layers back, through the flows the
// request created.
import { OverBudgetError } from '../checks/budget.ts';
import { dsrExpectations, expectedName } from '../checks/dsr-rules.ts';
import type { NodeModel, VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/index.ts';
import type { Flow, Packet, WalkCaveat, WalkHop, WalkResult, Verdict } from './types.ts';
import { walkContext, lookupRoute, lookupRoute6, lbKey, type RouteEntry, type WalkContext } from './context.ts';
import { walkPort, type PortWalkContext, type WalkOptions } from './walk-port.ts';
import { canonIp, familyOf, inCidr, ipToInt, maskBits } from './ip.ts';
import { returnPath } from './return-path.ts';
import { protoNumber } from './match.ts';
import { FlowTable, reverse, sameTuple, tupleOf, type Tuple } from './flows.ts';
import { k8sNames, serviceRangeOf, serviceRanges, type ServiceRange } from '../k8s/index.ts';
import { detectPlatform, factsOf } from '../platform/index.ts';
import { ruleEffect, type VfpRule } from '../../parsers/vfp/index.ts';

export type { WalkOptions } from './walk-port.ts';

const EPHEMERAL = 49152;
const K8S_LIMITS = 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations';
const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);
/** Container-ID endpoint names (64 hex digits + _network) are shortened the way docker/ctr print IDs. */
const shortName = (n: string) => {
  const m = /^([0-9a-f]{12})[0-9a-f]{40,}(_.*)?$/i.exec(n);
  return m ? `${m[1]}…${m[2] ?? ''}` : short(n);
};
const fmt = (ip: string, port?: number) => (ip.includes(':') && port !== undefined ? `[${ip}]:${port}` : `${ip}${port !== undefined ? `:${port}` : ''}`);

type SourceKind = 'pod' | 'host' | 'outside';

class Walk {
  hops: WalkHop[] = [];
  flow!: Flow;
  path: string[] = [];
  verdict: Verdict = 'unknown';
  reason = '';
  deciding = -1;
  egress: WalkResult['egress'] = {};
  caveats: WalkCaveat[] = [];
  sourceKind: SourceKind = 'outside';
  /** The VFP port the packet started on (reply steering never sends it back there). */
  sourcePort?: string;
  /** The backend a load balancer (VFP or HNS) sent the packet to, to check it exists. */
  dnatDip?: string;
  /** The destination was translated by an HNS load balancer the rules do not show (NodePort). */
  viaHnsLb = false;
  /** Reply walks: request hops whose HNS-only translation was already undone. */
  undone = new Set<number>();
  constructor(
    readonly ctx: WalkContext,
    public packet: Packet,
    readonly reply?: { fwd: WalkResult; flows: FlowTable },
  ) {}

  add(h: WalkHop): number {
    this.hops.push(h);
    // The path lists each object once, where the packet first reaches it.
    for (const n of h.nodes ?? []) if (!this.path.includes(n)) this.path.push(n);
    return this.hops.length - 1;
  }

  end(verdict: Verdict, reason: string, deciding = this.hops.length - 1): void {
    this.verdict = verdict;
    this.reason = reason;
    this.deciding = deciding;
  }

  caveat(c: WalkCaveat): void {
    if (!this.caveats.some((x) => x.kind === c.kind && x.text === c.text)) this.caveats.push(c);
  }
}

/** Walks one flow; with `reply: true` also walks its reply (`result.reply`). */
export function walkFlow(m: NodeModel, flow: Flow, opts: WalkOptions = {}): WalkResult {
  const r = runWalk(m, flow, opts);
  // The reply starts where the request ended, not where it arrived from.
  if (opts.reply) r.reply = walkReply(m, r, { ...opts, arrive: undefined });
  return r;
}

function runWalk(m: NodeModel, flow: Flow, opts: WalkOptions, reply?: { fwd: WalkResult; flows: FlowTable }): WalkResult {
  const ctx = walkContext(m);
  const icmp = flow.proto === 'icmp';
  const srcPort = icmp ? undefined : (flow.srcPort ?? EPHEMERAL);
  const w = new Walk(ctx, { srcIp: flow.srcIp, dstIp: flow.dstIp, srcPort, dstPort: icmp ? undefined : flow.dstPort, proto: flow.proto }, reply);
  w.flow = flow;
  try {
    run(w, flow, opts);
  } catch (e) {
    // A spent budget is no verdict: the caller says "not evaluated: over budget".
    if (e instanceof OverBudgetError) throw e;
    w.end('unknown', `internal error while walking: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!reply && icmp) icmpCaveats(w, m, flow);
  finishCaveats(w, !!reply);
  const p = w.packet;
  const result: WalkResult = {
    flow,
    verdict: w.verdict,
    reason: w.reason,
    hops: w.hops,
    deciding: w.deciding,
    final: { srcIp: p.srcIp, dstIp: p.dstIp, srcPort: p.srcPort, dstPort: p.dstPort, proto: p.proto },
    egress: w.egress,
    path: w.path,
    dependsOnUnmodelled: w.hops.some((h) => h.unmodelled && !h.superseded),
    inferred: w.hops.some((h) => h.inferred),
    caveats: w.caveats,
  };
  if (reply) result.kind = 'reply';
  else result.returnPath = returnPath(result);
  return result;
}

/** Caveats every walk carries: rules whose effect is not modelled, ambiguous ties, rewrites without state. */
function finishCaveats(w: Walk, isReply: boolean): void {
  w.hops.forEach((h, i) => {
    if (h.superseded) return;
    if (h.unmodelled) w.caveat({ kind: 'unmodelled', hop: i, text: `hop ${i + 1} (${h.rule ?? h.at}): ${h.unmodelled}` });
    if (h.ambiguous) w.caveat({ kind: 'ambiguous', hop: i, text: `hop ${i + 1}: ${h.ambiguous} have the same priority and both match; VFP does not define which one applies` });
    const rw = h.rewrite;
    if (!isReply && h.kind === 'vfp' && rw && (rw.srcIp !== undefined || rw.dstIp !== undefined || rw.srcPort !== undefined || rw.dstPort !== undefined) && !h.stateful) {
      w.caveat({
        kind: 'stateless-rewrite',
        hop: i,
        text: `hop ${i + 1}: ${h.rule ?? h.at} rewrites the packet but keeps no flow state (no "stateful" flag, no flow pair): the reply is not translated back`,
      });
    }
  });
}

/** What `ping` shows: VFP does not NAT ICMP (Kubernetes docs, Windows networking limitations). */
function icmpCaveats(w: Walk, m: NodeModel, flow: Flow): void {
  const notTransposed = w.hops.findIndex((h) => h.effect?.kind === 'icmp-untransposed');
  if (w.verdict === 'forwarded' && !w.egress.encapDst && w.ctx.local.has(canonIp(flow.srcIp) ?? '')) {
    let natTo: string | undefined;
    if (notTransposed < 0) {
      // Would TCP to the same destination be NATed? Then ICMP, which is not, leaves with the pod's address.
      const tcp = runWalk(m, { srcIp: flow.srcIp, dstIp: flow.dstIp, dstPort: 80, proto: 'tcp' }, {});
      if (tcp.final.srcIp !== flow.srcIp) natTo = tcp.final.srcIp;
    }
    if (notTransposed >= 0 || natTo) {
      // The ICMP caveat says why no answer comes back, more precisely than the general one.
      w.caveats = w.caveats.filter((c) => c.kind !== 'no-return');
      w.caveat({
        kind: 'icmp',
        hop: notTransposed >= 0 ? notTransposed : undefined,
        source: `${K8S_LIMITS} ("ICMP packets directed to pass through a remote network … cannot be transposed and thus will not be routed back to their source")`,
        text: `ping: the echo request leaves with the pod's own address ${flow.srcIp}${natTo ? ` (TCP and UDP to ${flow.dstIp} are SNATed to ${natTo}, ICMP is not)` : ''}; the answer does not come back. Test with TCP instead (curl, Test-NetConnection -Port).`,
      });
    }
  }
}

function portCtx(w: Walk, ownerIp?: string): PortWalkContext {
  const fam = familyOf(w.packet.srcIp);
  return {
    flow: w.flow,
    nodeIp: fam === 6 ? w.ctx.nodeIp6 : w.ctx.nodeIp,
    portIp: ownerIp,
    hns: w.ctx.hns,
    flows: w.reply?.flows,
  };
}

function run(w: Walk, flow: Flow, opts: WalkOptions): void {
  const { ctx } = w;
  const m = ctx.model;
  const fs = familyOf(flow.srcIp);
  const fd = familyOf(flow.dstIp);
  if (!fs || !fd || fs !== fd) {
    w.end('unknown', fs && fd ? 'the source and destination are of different IP families: no packet is sent that way' : 'the source and destination must be IPv4 or IPv6 addresses');
    return;
  }
  if (!m.endpoints && !m.vfp) {
    w.end('unknown', 'the bundle has neither HNS endpoints (endpoint.txt) nor VFP rules (vfpOutput.txt): there is nothing to walk');
    return;
  }
  const isReply = !!w.reply;
  const ephemeralNote = flow.srcPort === undefined && flow.proto !== 'icmp' ? `source port ${EPHEMERAL} assumed (ephemeral)` : undefined;
  const src = canonIp(flow.srcIp)!;
  const verb = isReply ? 'answer' : 'send';

  // A packet from another node starts on the uplink (forward() undoes HNS-only translations of a reply).
  if (opts.arrive) {
    if (arriveOnUplink(w, opts.arrive, opts, ephemeralNote)) forward(w, undefined, opts, 0);
    return;
  }

  // A reply from a backend the request reached through an HNS-only translation (NodePort) is undone
  // first: that state is taken to sit on the backend's side.
  if (isReply) undoHnsFlows(w);

  // --- source ---------------------------------------------------------------------------------
  const srcEp = ctx.local.get(src);
  let srcPolicyPort: VfpPortRef | undefined;
  if (srcEp) {
    w.sourceKind = 'pod';
    w.packet.srcMac = srcEp.mac;
    const pod = k8sNames(m).podLabel(flow.srcIp);
    const label = `pod ${flow.srcIp}`;
    const portRef = ctx.portOf.get(srcEp.id);
    w.sourcePort = portRef?.name.toLowerCase();
    w.add({
      at: `${label} (${pod ?? (srcEp.name ? shortName(srcEp.name) : short(srcEp.id))})`,
      kind: 'source',
      action: verb,
      evidence: srcEp.src,
      note: [ctx.duplicates.has(src) ? `${flow.srcIp} belongs to more than one endpoint; the first in endpoint.txt is used` : undefined, ephemeralNote].filter(Boolean).join('; ') || undefined,
      after: { ...w.packet },
      nodes: [`endpoint:${srcEp.id}`],
    });
    compartmentHop(w, srcEp, flow.dstIp);
    srcPolicyPort = portRef;
    if (!walkSourcePort(w, srcPolicyPort, label, `endpoint ${short(srcEp.id)}`, opts, `endpoint:${srcEp.id}`, src)) return;
  } else if (ctx.hostIps.has(src)) {
    w.sourceKind = 'host';
    const eg = isReply ? undefined : hostEgress(w, flow.dstIp);
    const hostPort = eg?.port ?? ctx.hostPort;
    const hostMac = eg?.port?.mac ?? ctx.hostMac;
    w.packet.srcMac = hostMac;
    const label = `host ${flow.srcIp}`;
    w.sourcePort = hostPort?.name.toLowerCase();
    w.add({
      at: `${label} (host compartment)`,
      kind: 'source',
      action: verb,
      note: [ephemeralNote, hostMac ? `source MAC ${hostMac} (the host vNIC's)` : undefined].filter(Boolean).join('; ') || undefined,
      after: { ...w.packet },
      nodes: hostPort ? [`port:${hostPort.key}`] : [],
    });
    if (eg) {
      const before = { ...w.packet };
      if (eg.srcIp) w.packet = { ...w.packet, srcIp: eg.srcIp };
      const r = eg.route.route;
      w.add({
        at: 'host routing',
        kind: 'host-route',
        action: r.onLink ? `on-link via ${r.interface}` : `via ${r.gateway} on ${r.interface}`,
        evidence: r.src,
        inferred: eg.srcIp ? true : undefined,
        rewrite: eg.srcIp ? { srcIp: eg.srcIp } : undefined,
        before: eg.srcIp ? before : undefined,
        after: eg.srcIp ? { ...w.packet } : undefined,
        note: [
          `route ${r.destination}/${eg.route.bits} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on interface ${r.interface} metric ${r.metricText}: the host sends through ${eg.port ? `vNIC ${eg.port.friendlyName ?? short(eg.port.name)}` : `the adapter with address ${r.interface}`}`,
          eg.srcIp
            ? `a socket that does not bind its address takes the outgoing interface's, ${eg.srcIp}, as its source (Windows' strong host model for sends; RFC 6724 §5 rule 5 "prefer outgoing interface")`
            : undefined,
        ]
          .filter(Boolean)
          .join('; '),
        nodes: eg.port ? [`port:${eg.port.key}`] : [],
      });
    }
    if (hostPort?.policy) {
      if (!walkSourcePort(w, hostPort, `host vNIC ${hostPort.friendlyName ?? short(hostPort.name)}`, 'the host vNIC', opts)) return;
    } else {
      w.add({ at: 'host vNIC', kind: 'note', action: 'pass', inferred: true, note: 'the bundle has no VFP rules for the host vNIC port; the packet is assumed to reach the vSwitch unchanged' });
    }
  } else {
    w.sourceKind = 'outside';
    const remote = ctx.remote.get(src);
    const rsr = ctx.hns.remoteSubnetFor(flow.srcIp);
    const tunnelled = ctx.podNetwork?.type === 'overlay' && (rsr || remote?.providerAddress);
    w.sourcePort = ctx.extPort?.name.toLowerCase();
    w.add({
      at: remote ? `remote pod ${flow.srcIp} (on another node${remote.providerAddress ? `, PA ${remote.providerAddress}` : ''})` : `${flow.srcIp} outside the node`,
      kind: 'source',
      action: isReply ? 'answer arrives on the uplink' : 'arrive on the uplink',
      inferred: !remote || !!tunnelled,
      note:
        [
          remote ? undefined : `${flow.srcIp} is no endpoint and no address of this node: it is taken to arrive from the network on the uplink`,
          tunnelled
            ? `on this overlay network it arrives VXLAN-encapsulated from ${rsr?.pa ?? remote?.providerAddress}; the decapsulation is taken as done on arrival (the host's VXLAN termination is not in the bundle's rules)`
            : undefined,
          ephemeralNote,
        ]
          .filter(Boolean)
          .join('; ') || undefined,
      evidence: remote?.src,
      after: { ...w.packet },
      nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
    });
    if (ctx.extPort?.policy && m.vfp) {
      const policy = m.vfp.getPolicy(ctx.extPort.key);
      if (policy) {
        const res = walkPort(policy, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, 'OUT', w.packet, portCtx(w), opts);
        for (const h of res.hops) w.add({ ...h, nodes: [`port:${ctx.extPort.key}`] });
        w.packet = res.packet;
        if (res.droppedAt !== undefined) {
          w.end('dropped', res.reason ?? 'dropped on the uplink', w.hops.length - res.hops.length + res.droppedAt);
          return;
        }
      }
    }
  }

  // --- forwarding ------------------------------------------------------------------------------
  forward(w, srcPolicyPort, opts, 0);
}

const macKey = (m: string | undefined) => m?.replace(/[:-]/g, '').toLowerCase();

/**
 * Where the host sends a packet: the route Windows picks for the destination (longest prefix, then
 * metric), its interface's host vNIC and that interface's address. A host address that is not the
 * outgoing interface's is replaced by it (`srcIp`): Windows sends by the strong host model, the
 * source address belongs to the sending interface (TechNet Magazine, The Cable Guy, "Strong and Weak Host Models",
 * November 2007; RFC 6724 §5 rule 5). Undefined when the route table does not say, or when the
 * route leaves through the node's usual host vNIC with the address the walk was given.
 */
function hostEgress(w: Walk, dstIp: string): { route: RouteEntry; port?: VfpPortRef; srcIp?: string } | undefined {
  const { ctx } = w;
  if (familyOf(dstIp) !== 4 || !ctx.routes) return undefined;
  const route = lookupRoute(ctx, dstIp);
  const via = route?.route.interface;
  if (!route || !via || ipToInt(via) === undefined || via.startsWith('127.')) return undefined;
  const hostComp = ctx.model.ip?.compartments.find((c) => c.id === 1) ?? ctx.model.ip?.compartments[0];
  const adapter = hostComp?.adapters.find((a) => a.ipv4.some((x) => x.address === via));
  if (!adapter) return undefined;
  // The host's side of the pod network (flannel's cbr0_ep, a bridge endpoint in the host compartment)
  // is an HNS endpoint with a port of its own; other host vNICs are matched by MAC.
  const ep = ctx.local.get(via);
  const port = (ep ? ctx.portOf.get(ep.id) : undefined) ?? (adapter.mac ? (ctx.model.ports ?? []).find((p) => p.role === 'host-vnic' && macKey(p.mac) === macKey(adapter.mac)) : undefined);
  const srcIp = canonIp(w.flow.srcIp) !== via ? via : undefined;
  if (!srcIp && (!port || port === ctx.hostPort)) return undefined;
  return { route, port, srcIp };
}

/**
 * A packet another node sent, as it reaches this node's uplink: the uplink's rules (the port's OUT
 * groups: traffic from the wire), then, when it is VXLAN-encapsulated, the decapsulation — which only
 * takes a packet addressed to this node's provider address, with this network's VNI and its
 * distributed router's MAC as the inner destination ("Windows overlay decap works at L2 and so it needs
 * the correct destination MAC for the remote host to work": flannel-io/flannel
 * pkg/backend/vxlan/vxlan_windows.go). False when the walk ended here.
 */
function arriveOnUplink(w: Walk, arrive: NonNullable<WalkOptions['arrive']>, opts: WalkOptions, ephemeralNote: string | undefined): boolean {
  const { ctx } = w;
  const m = ctx.model;
  w.sourceKind = 'outside';
  w.packet = { ...arrive.packet, encap: arrive.packet.encap ? { ...arrive.packet.encap } : undefined };
  if (!w.packet.encap) delete w.packet.encap;
  w.sourcePort = ctx.extPort?.name.toLowerCase();
  const p = w.packet;
  const enc = p.encap;
  const from = arrive.from ? `node ${arrive.from}` : 'another node';
  w.add({
    at: `${p.srcIp} from ${from}`,
    kind: 'source',
    action: w.reply ? 'answer arrives on the uplink' : 'arrive on the uplink',
    note:
      [
        enc
          ? `${enc.type} from ${enc.srcIp ?? '?'} to ${enc.dstIp}${enc.vni !== undefined ? `, VNI ${enc.vni}` : ''}${enc.dstMac ? `, inner destination MAC ${enc.dstMac}` : ''}; inner ${p.srcIp} → ${p.dstIp}`
          : `routed here by ${from}${p.dstMac ? ` to MAC ${p.dstMac}` : ''}`,
        ephemeralNote,
      ]
        .filter(Boolean)
        .join('; ') || undefined,
    after: { ...p },
    nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
  });
  if (ctx.extPort?.policy && m.vfp) {
    const policy = m.vfp.getPolicy(ctx.extPort.key);
    if (policy) {
      const res = walkPort(policy, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, 'OUT', w.packet, portCtx(w), opts);
      for (const h of res.hops) w.add({ ...h, nodes: [`port:${ctx.extPort.key}`] });
      w.packet = res.packet;
      if (res.droppedAt !== undefined) {
        w.end('dropped', res.reason ?? 'dropped on the uplink', w.hops.length - res.hops.length + res.droppedAt);
        return false;
      }
    }
  }
  const e = w.packet.encap;
  if (!e) return true;
  const net = ctx.podNetwork;
  const myPa = canonIp(net?.providerAddress) ?? ctx.nodeIp;
  const myVni = net?.subnets.find((s) => s.vsid !== undefined)?.vsid;
  const myMac = net?.drMac?.replace(/:/g, '-').toUpperCase();
  const theirMac = e.dstMac?.replace(/:/g, '-').toUpperCase();
  const dst = canonIp(e.dstIp) ?? e.dstIp;
  const refuse = (why: string, reason: string) => {
    const i = w.add({ at: 'uplink', kind: 'drop', action: 'not decapsulated', effect: { kind: 'drop', why: 'not-decapsulated' }, inferred: true, evidence: net?.src, note: why, nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [] });
    w.end('dropped', reason, i);
    return false;
  };
  if (!ctx.hostIps.has(dst) && dst !== myPa) return refuse(`the outer destination ${e.dstIp} is not an address of this node (${myPa ?? 'address unknown'})`, `${e.type} to ${e.dstIp}, which is not this node`);
  if (net && net.type !== 'overlay') return refuse(`the pod network ${net.name} is ${net.type}, not an overlay: this node terminates no ${e.type} tunnel for it`, `a ${e.type} packet reached a node whose pod network is not an overlay`);
  if (e.vni !== undefined && myVni !== undefined && e.vni !== myVni) return refuse(`VNI ${e.vni} is not this network's VSID ${myVni}: the packet belongs to no virtual network here`, `VNI ${e.vni} does not match the pod network's VSID ${myVni}`);
  if (theirMac && myMac && theirMac !== myMac)
    return refuse(
      `the inner destination MAC ${theirMac} is not this network's distributed router MAC ${myMac}: Windows decapsulates at L2 and drops a frame for another MAC (the sender's RemoteSubnetRoute names a stale DR MAC)`,
      `the inner frame is addressed to DR MAC ${theirMac}, not to ${myMac}: not delivered`,
    );
  const inner: Packet = { ...w.packet, dstMac: myMac ?? w.packet.dstMac };
  delete inner.encap;
  w.add({
    at: 'uplink',
    kind: 'uplink',
    action: `${e.type} decap`,
    inferred: true,
    evidence: net?.src,
    note: `outer ${e.srcIp ?? '?'} → ${e.dstIp}${e.vni !== undefined ? ` VNI ${e.vni}` : ''} removed: this node's provider address${myVni !== undefined ? ` and VSID ${myVni}` : ''}${myMac ? `, inner frame to its DR MAC ${myMac}` : ''}; the decapsulation itself is not in the bundle's rules`,
    before: { ...w.packet },
    after: { ...inner },
    nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
  });
  w.packet = inner;
  return true;
}

function compartmentHop(w: Walk, ep: HnsEndpoint, dstIp: string): void {
  const a = w.ctx.adapterOf.get(ep.id);
  if (!a) {
    w.add({
      at: `compartment of ${ep.ip ?? ep.ipv6}`,
      kind: 'compartment',
      action: 'route',
      inferred: true,
      note: w.ctx.model.ip
        ? `endpoint ${short(ep.id)} has no adapter in any compartment of ip.txt (a pod whose vNIC never arrived?): its routing cannot be checked; the walk continues at its VFP port`
        : 'ip.txt is missing: the pod compartment\'s routing cannot be checked; the walk continues at its VFP port',
    });
    return;
  }
  if (familyOf(dstIp) === 6) {
    // ipconfig prints no IPv6 prefix lengths; the HNS network's IPv6 subnet says what is on-link.
    const gw6 = a.adapter.gateways.find((g) => familyOf(g) === 6);
    const net = (w.ctx.model.networks ?? []).find((n) => n.id.toLowerCase() === ep.networkId?.toLowerCase()) ?? w.ctx.podNetwork;
    const subnet = ep.ipv6 ? net?.subnets.find((s) => familyOf(s.prefix.split('/')[0]) === 6 && inCidr(ep.ipv6!, s.prefix)) : undefined;
    const onLink6 = subnet ? inCidr(dstIp, subnet.prefix) : undefined;
    w.add({
      at: `compartment ${a.compartment.id}, ${a.adapter.name}`,
      kind: 'compartment',
      action: onLink6 ? 'on-link' : gw6 ? `via gateway ${gw6}` : 'IPv6',
      evidence: a.adapter.src,
      inferred: subnet ? undefined : true,
      note: subnet
        ? onLink6
          ? `${dstIp} is in the pod's IPv6 subnet ${subnet.prefix} (HNS network ${net!.name}): sent straight to it`
          : `default gateway ${gw6 ?? '(none printed)'}`
        : `neither ipconfig (no IPv6 prefix lengths) nor HNS says whether ${dstIp} is on-link; the packet is taken to the pod's VFP port${gw6 ? ` (default gateway ${gw6})` : ''}`,
      nodes: [`compartment:${a.compartment.id}`],
    });
    return;
  }
  const addr = a.adapter.ipv4.find((x) => x.address === ep.ip) ?? a.adapter.ipv4[0];
  const bits = addr?.prefixLength ?? maskBits(addr?.mask);
  const mine = ipToInt(addr?.address);
  const dst = ipToInt(dstIp);
  const gw = a.adapter.gateways.find((g) => ipToInt(g) !== undefined);
  let onLink = false;
  if (bits !== undefined && mine !== undefined && dst !== undefined) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    onLink = ((mine & mask) >>> 0) === ((dst & mask) >>> 0);
  }
  w.add({
    at: `compartment ${a.compartment.id}, ${a.adapter.name}`,
    kind: 'compartment',
    action: onLink ? 'on-link' : gw ? `via gateway ${gw}` : 'no gateway',
    evidence: a.adapter.src,
    note: onLink ? `${dstIp} is in the adapter's subnet${bits !== undefined ? ` /${bits}` : ''}: sent straight to it` : gw ? `default gateway ${gw}` : 'the adapter has no default gateway: only its own subnet is reachable',
    nodes: [`compartment:${a.compartment.id}`],
  });
}

/** Walks the source port OUT; false when the walk ended (dropped or unknown). */
function walkSourcePort(w: Walk, port: VfpPortRef | undefined, label: string, owner: string, opts: WalkOptions, ownerNode?: string, ownerIp?: string): boolean {
  const m = w.ctx.model;
  if (!m.vfp) {
    w.end('unknown', 'vfpOutput.txt is missing: the VFP rules that decide this packet are not in the bundle');
    return false;
  }
  if (!port) {
    w.end('unknown', `${owner} has no VFP port in the bundle (ports.txt / vfpOutput.txt): its rules cannot be walked`);
    return false;
  }
  const policy = port.policy ? m.vfp.getPolicy(port.key) : undefined;
  if (!policy) {
    w.end('unknown', `no rules of VFP port ${port.name} (${owner}) were dumped in vfpOutput.txt`);
    return false;
  }
  if (policy.blocked) {
    const i = w.add({ at: `${label} OUT`, kind: 'drop', port: port.name, action: 'drop', effect: { kind: 'drop', why: 'blocked-port' }, evidence: port.policy?.src, note: 'the port is blocked (get-port-state Blocked : TRUE)', nodes: [`port:${port.key}`] });
    w.end('dropped', `VFP port ${port.name} of ${owner} is blocked`, i);
    return false;
  }
  const r = walkPort(policy, label, 'OUT', w.packet, portCtx(w, ownerIp), opts);
  for (const h of r.hops) w.add({ ...h, note: withBackendName(w, h), nodes: hopNodes(w, h, ownerNode ?? `port:${port.key}`) });
  w.packet = r.packet;
  noteDnat(w, r.hops);
  if (r.droppedAt !== undefined) {
    w.end('dropped', r.reason ?? 'dropped', w.hops.length - r.hops.length + r.droppedAt);
    return false;
  }
  return true;
}

/** Remembers the backend a load-balancing hop chose (to check it is an endpoint). */
function noteDnat(w: Walk, hops: WalkHop[]): void {
  for (const h of hops) {
    if (h.flow || !h.after || h.superseded) continue;
    const e = h.effect;
    if (e?.kind === 'lb' && e.by === 'vfp' && e.backend) w.dnatDip = canonIp(e.backend);
  }
}

/** A load-balancing hop's note with the Kubernetes name of the backend it chose, when the bundle's kubectl snapshot has it. */
function withBackendName(w: Walk, h: WalkHop): string | undefined {
  if (h.effect?.kind !== 'lb' || !h.after || h.flow) return h.note;
  const dip = h.after.l2Dst ?? h.after.dstIp;
  const pod = k8sNames(w.ctx.model).podLabel(dip);
  return pod ? [h.note, `backend ${dip} is pod ${pod}`].filter(Boolean).join('; ') : h.note;
}

/**
 * The graph nodes a hop on a port lights: the port's owner (a pod's port is drawn as its endpoint);
 * for a load-balancing hop, the load balancer and the backend it chose.
 */
function hopNodes(w: Walk, h: WalkHop, owner: string | undefined): string[] | undefined {
  const nodes = owner ? [owner] : [];
  if (h.effect?.kind === 'lb' && h.before && h.after) {
    const b = h.before;
    const lb = w.ctx.lbs.get(lbKey(b.dstIp, b.dstPort, protoNumber(b)));
    if (lb) nodes.push(`loadbalancer:${lb.id}`);
    const target = canonIp(h.after.l2Dst ?? h.after.dstIp) ?? '';
    const dip = w.ctx.local.get(target) ?? w.ctx.remote.get(target);
    if (dip) nodes.push(`endpoint:${dip.id}`);
  }
  return nodes.length ? nodes : undefined;
}

/** The rule a hop on a port names (for re-reading its data). */
function ruleOfHop(w: Walk, h: WalkHop): VfpRule | undefined {
  if (!h.port || !w.ctx.model.vfp) return undefined;
  const port = portByName(w.ctx, h.port.toLowerCase());
  const pol = port ? w.ctx.model.vfp.getPolicy(port.key) : undefined;
  for (const l of pol?.layers ?? []) for (const g of l.groups) for (const r of g.rules) if (r.src.line === h.evidence?.line && r.name === h.rule) return r;
  return undefined;
}

function portByName(ctx: WalkContext, name: string): VfpPortRef | undefined {
  return (ctx.model.ports ?? []).find((p) => p.name.toLowerCase() === name || p.key === name);
}

function endpointOfPort(ctx: WalkContext, port: VfpPortRef): HnsEndpoint | undefined {
  for (const [id, p] of ctx.portOf) if (p === port) return ctx.endpointsById.get(id.toLowerCase());
  return undefined;
}

/** Reply walks: a load-balancing rewrite the request got from HNS (not from a VFP rule) is undone here. */
function undoHnsFlows(w: Walk): void {
  const fwd = w.reply?.fwd;
  if (!fwd) return;
  fwd.hops.forEach((h, i) => {
    if (h.kind !== 'note' || !h.stateful || !h.before || !h.after || w.undone.has(i)) return;
    if (!sameTuple(tupleOf(w.packet), reverse(tupleOf(h.after)))) return;
    const to = reverse(tupleOf(h.before));
    const after: Packet = { ...w.packet, srcIp: to.srcIp, srcPort: to.srcPort, dstIp: to.dstIp, dstPort: to.dstPort };
    w.add({
      at: 'vSwitch',
      kind: 'note',
      action: 'flow (reverse rewrite)',
      rewrite: {
        srcIp: after.srcIp !== w.packet.srcIp ? after.srcIp : undefined,
        srcPort: after.srcPort !== w.packet.srcPort ? after.srcPort : undefined,
        dstIp: after.dstIp !== w.packet.dstIp ? after.dstIp : undefined,
      },
      inferred: true,
      flow: true,
      note: `the request was translated by HNS load balancer state (hop ${i + 1}); its reverse is assumed to be undone the same way`,
      before: w.packet,
      after,
    });
    w.packet = after;
    w.undone.add(i);
  });
}

function forward(w: Walk, srcPort: VfpPortRef | undefined, opts: WalkOptions, depth: number): void {
  const { ctx } = w;
  if (depth === 0 && w.reply) undoHnsFlows(w);
  const p = w.packet;

  // A reply to a rewritten request goes back to the port whose flow rewrote it (the NAT binding
  // lives there), whatever the destination address says.
  const steer = w.reply?.flows.steerTo(p);
  if (steer && steer.port !== w.sourcePort) {
    const port = portByName(ctx, steer.port);
    if (port) {
      const ep = endpointOfPort(ctx, port);
      w.add({
        at: 'vSwitch',
        kind: 'vswitch',
        action: 'switch (flow)',
        note: `${fmt(p.dstIp, p.dstPort)} is the address the request left port ${short(port.name)} with (${steer.hop.rule ?? steer.hop.at}): the flow VFP keeps for it sends the reply back to that port`,
        evidence: steer.hop.evidence,
      });
      if (ep) {
        const pod = k8sNames(ctx.model).podLabel(ep.ip ?? '');
        const addr = familyOf(p.dstIp) === 6 ? (ep.ipv6 ?? ep.ip) : (ep.ip ?? ep.ipv6);
        deliverTo(w, port, `pod ${addr}${pod ? ` (${pod})` : ''}`, `endpoint:${ep.id}`, ep, opts);
      } else deliverTo(w, port, port === ctx.hostPort ? 'host' : `port ${short(port.name)}`, `port:${port.key}`, undefined, opts);
      return;
    }
  }

  if (p.encap) {
    leaveEncapsulated(w);
    return;
  }

  const target = canonIp(p.l2Dst ?? p.dstIp) ?? p.dstIp;
  const dstEp = ctx.local.get(target);
  if (dstEp && isHairpin(w, target)) {
    hairpin(w, dstEp, srcPort);
    return;
  }
  if (dstEp) {
    const port = ctx.portOf.get(dstEp.id);
    w.add({
      at: 'vSwitch',
      kind: 'vswitch',
      action: 'switch',
      note: `${p.l2Dst ? `the frame is addressed to backend ${p.l2Dst} (IP destination ${p.dstIp})` : `${p.dstIp} is local endpoint ${short(dstEp.id)}`}${port ? ` on port ${short(port.name)}` : ''}`,
      nodes: [],
    });
    const dstPod = k8sNames(ctx.model).podLabel(dstEp.ip ?? '');
    // An endpoint whose adapter is in the host compartment (flannel's cbr0_ep) is the host's, not a pod's.
    const hostSide = ctx.adapterOf.get(dstEp.id)?.compartment.id === 1;
    deliverTo(w, port, `${hostSide ? 'host' : 'pod'} ${target}${dstPod ? ` (${dstPod})` : ''}`, `endpoint:${dstEp.id}`, dstEp, opts);
    return;
  }

  const dst = canonIp(p.dstIp) ?? p.dstIp;
  if (ctx.hostIps.has(dst)) {
    if (nodePort(w, opts, depth)) return;
    w.add({ at: 'vSwitch', kind: 'vswitch', action: 'switch', note: `${p.dstIp} is an address of this node: to the host vNIC` });
    deliverTo(w, ctx.hostPort, `host ${p.dstIp}`, ctx.hostPort ? `port:${ctx.hostPort.key}` : undefined, undefined, opts);
    return;
  }

  // A service VIP still in the destination means nothing translated it.
  const proto = protoNumber(p);
  const lb = ctx.lbs.get(lbKey(p.dstIp, p.dstPort, proto));
  const outside = w.sourceKind === 'outside' && !w.reply && depth === 0;
  const vip = lb || ctx.vips.has(dst) ? vipKind(w, dst, lb) : { kind: 'unknown' as const };
  const kind = vip.kind;
  if (lb && outside && p.proto !== 'icmp' && kind !== 'cluster') {
    // A LoadBalancer ingress IP or external IP reached from outside: HNS load-balances it like a NodePort.
    const ranges = serviceRanges(ctx.model);
    return void hnsLoadBalance(
      w,
      lb,
      `${kind === 'external' ? 'service address' : 'VIP'} ${fmt(p.dstIp, p.dstPort)}`,
      opts,
      depth,
      kind === 'external'
        ? `${p.dstIp} is an external address of Service ${k8sNames(ctx.model).serviceLabel(dst)} (kubectl snapshot)`
        : ranges.length
          ? `${p.dstIp} is outside the cluster's Service range ${ranges.map((r) => r.cidr).join(', ')} (${ranges[0].file} line ${ranges[0].line}), so it is no ClusterIP: it is taken as a LoadBalancer or external IP (the bundle has no Service list that says which)`
          : `the bundle has no Service list that says whether ${p.dstIp} is a LoadBalancer or external IP (reachable from outside) or a ClusterIP (reachable only inside the cluster): it is taken as the former, since the packet came from outside`,
    );
  }
  if (lb || (ctx.vips.has(dst) && (srcPort || outside))) {
    const what = `${fmt(p.dstIp, p.dstPort)}/${p.proto.toUpperCase()}`;
    const icmp = p.proto === 'icmp';
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: 'no load-balancing rule',
      effect: { kind: 'drop', why: 'no-lb' },
      inferred: true,
      evidence: lb?.src,
      note: icmp
        ? `${p.dstIp} is a service VIP; its load-balancing rules match TCP or UDP (their Protocols condition), so an ICMP echo is not translated to any backend and nothing answers it`
        : outside
          ? lb
            ? k8sNames(ctx.model).serviceLabel(dst)
              ? `${p.dstIp} is the ClusterIP of Service ${k8sNames(ctx.model).serviceLabel(dst)} (kubectl snapshot): a ClusterIP is reachable only from inside the cluster, and nothing on this node load-balances it for a packet from outside`
              : vip.range
                ? `${p.dstIp} is inside the cluster's Service range ${vip.range.cidr} (${vip.range.file} line ${vip.range.line}), so it is taken as a ClusterIP (the bundle has no Service list to confirm it): a ClusterIP is reachable only from inside the cluster, and nothing on this node load-balances it for a packet from outside`
                : `HNS load balancer ${short(lb.id)} serves ${what} as an internal load balancer (ILB port mapping): it is reachable only from inside the cluster, and nothing on this node load-balances it for a packet from outside`
            : `${p.dstIp} is a service address, but no HNS load balancer publishes port ${p.dstPort ?? '-'}/${p.proto.toUpperCase()} on it`
          : lb
            ? `HNS has load balancer ${short(lb.id)} for ${what}, but no VFP rule on the source port translated it (HNS and VFP disagree)`
            : `${p.dstIp} is a service VIP, but no load balancer or VFP rule covers port ${p.dstPort ?? '-'}/${p.proto.toUpperCase()}`,
      nodes: lb ? [`loadbalancer:${lb.id}`] : [],
    });
    if (icmp) w.caveat({ kind: 'icmp', hop: i, text: `ping to a Service VIP gets no answer on Windows: VFP load-balances only the protocols of the service's ports (TCP/UDP). Test the service with TCP or UDP.`, source: `${K8S_LIMITS} (no ICMP transposition)` });
    w.end(
      'dropped',
      icmp
        ? `ping ${p.dstIp}: a Service VIP answers only on its TCP/UDP ports; no rule translates ICMP, so the echo is lost`
        : outside
          ? lb
            ? `${what} is ${k8sNames(ctx.model).serviceLabel(dst) || vip.range ? 'a ClusterIP' : 'an internal load balancer'}, reachable only from inside the cluster: a packet from outside is not load-balanced`
            : `nothing on this node load-balances ${what} for a packet from outside`
          : `no VFP rule load-balances ${what} on the source port: a ClusterIP is not routable, so the untranslated packet is lost`,
      i,
    );
    return;
  }

  // A backend the load balancer chose that no endpoint of this node knows.
  if (w.dnatDip && w.dnatDip === dst && ctx.model.endpoints && !ctx.remote.has(dst)) {
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: 'stale backend',
      effect: { kind: 'drop', why: 'stale-backend' },
      inferred: true,
      note: `${p.dstIp} is a backend of the load-balancing rule, but no HNS endpoint of this node (local or remote) has that address: kube-proxy creates an endpoint for every backend it programs, so this one is stale and nothing answers for it`,
    });
    w.caveat({ kind: 'black-hole', hop: i, text: `backend ${p.dstIp} is no endpoint of this bundle: the load balancer sends part of the traffic into a black hole`, source: 'kubernetes/kubernetes pkg/proxy/winkernel (an HNS endpoint per backend: local, or remote with isLocal false)' });
    w.end('dropped', `the load balancer chose backend ${p.dstIp}, which is no endpoint of this node: a black hole (stale DIP)`, i);
    return;
  }

  routeOut(w, opts);
}

/** A pod's packet to a service the load balancer sent back to that very pod, its source untouched. */
function isHairpin(w: Walk, target: string): boolean {
  const me = canonIp(w.flow.srcIp);
  return w.sourceKind === 'pod' && !w.reply && target === me && canonIp(w.packet.srcIp) === me && w.dnatDip === target;
}

/**
 * Hairpin: a pod reaches a service whose chosen backend is the pod itself. A packet from X to X is
 * not something the pod's stack answers as the service; Windows needs the source rewritten first —
 * kube-proxy's rules for this are an SNAT of such traffic to the service's source VIP (a `dynnat`
 * `SNAT_…` rule) and a `Block_LoopBack…` rule (kubernetes/kubernetes#79359, whose dump shows both in
 * an `SNAT` layer; kubernetes/community#8890: hairpin traffic is sourced from the NAT pool's address,
 * a wrong pool breaks it). Had such a rule matched, the source would no longer be the pod's. The port's
 * rules did not rewrite it: what the node then does is not in the bundle, so the verdict is unknown.
 */
function hairpin(w: Walk, ep: HnsEndpoint, srcPort: VfpPortRef | undefined): void {
  const p = w.packet;
  const pol = srcPort && w.ctx.model.vfp ? w.ctx.model.vfp.getPolicy(srcPort.key) : undefined;
  const named = (pol?.layers ?? []).flatMap((l) => l.groups.flatMap((g) => g.rules)).filter((r) => /hairpin|loopback/i.test(r.name));
  const i = w.add({
    at: 'vSwitch',
    kind: 'note',
    action: 'hairpin',
    inferred: true,
    note: `the load balancer chose the sending pod ${p.dstIp} itself as the backend, and no rule on its port rewrote the source: the packet would come back to it as ${fmt(p.srcIp, p.srcPort)} → ${fmt(p.dstIp, p.dstPort)}${named.length ? `; the port has hairpin rules (${named.map((r) => r.name).slice(0, 3).join(', ')}) but none matched this packet` : '; the port has no hairpin SNAT rule (SNAT to the service\'s source VIP) in the bundle'}`,
    nodes: [`endpoint:${ep.id}`],
  });
  w.caveat({
    kind: 'limitation',
    hop: i,
    text: `hairpin: ${w.flow.srcIp} reaches a service that load-balances to ${p.dstIp}, the pod itself; without a hairpin SNAT rule the packet reaches the pod with source = destination, which no connection of the pod expects. Check the port's SNAT rules for the service (kube-proxy's hairpin SNAT to the service's source VIP).`,
    source: 'kubernetes/kubernetes#79359 (SNAT layer: SNAT_… dynnat rule to the source VIP, Block_LoopBack…); kubernetes/community#8890 (hairpin to the same node depends on the NAT pool address)',
  });
  w.end('unknown', `hairpin: the service sent ${w.flow.srcIp}'s packet back to ${p.dstIp} itself with its source unchanged; no rule on the port applies a hairpin SNAT, so whether the pod gets an answer is not in the bundle`, i);
}

/** outside → NodePort, node → its own NodePort: VFP rules first, then HNS's load balancer. */
function nodePort(w: Walk, opts: WalkOptions, depth: number): boolean {
  const { ctx } = w;
  const p = w.packet;
  if (p.dstPort === undefined || p.proto === 'icmp' || depth > 0 || w.reply) return false;
  const lb = ctx.nodePorts.get(`${p.dstPort}|${protoNumber(p)}`);
  if (!lb) return false;
  if (w.sourceKind === 'host') {
    const i = w.add({
      at: 'host',
      kind: 'drop',
      action: 'NodePort from the node itself',
      effect: { kind: 'drop', why: 'limitation' },
      inferred: true,
      evidence: lb.src,
      note: `HNS load balancer ${short(lb.id)} publishes NodePort ${p.dstPort}/${p.proto.toUpperCase()}, but no VFP rule of the host vNIC translated this packet; the Kubernetes docs list "Local NodePort access from the node itself" as not supported on Windows`,
      nodes: [`loadbalancer:${lb.id}`],
    });
    w.caveat({ kind: 'limitation', hop: i, text: 'a node cannot reach its own NodePort on Windows (it works from other nodes and external clients)', source: `${K8S_LIMITS} ("Local NodePort access from the node itself")` });
    w.end('dropped', `NodePort ${p.dstPort} from the node itself: not translated (a documented Windows limitation)`, i);
    return true;
  }
  return hnsLoadBalance(w, lb, `NodePort ${p.dstPort}`, opts, depth);
}

/**
 * Whether a VIP is an address clients outside the cluster may use: a LoadBalancer ingress IP or an
 * external IP (kube-proxy winkernel programs an HNS load balancer for each: proxier.go syncProxyRules,
 * "Create a Load Balancer Policy for each loadbalancer ingress" and the externalIPs loop), or a
 * ClusterIP, which "makes the Service only reachable from within the cluster"
 * (https://kubernetes.io/docs/concepts/services-networking/service/#type-clusterip). The Service
 * list in the bundle's kubectl snapshot says which; without it the bundle does not.
 */
function vipKind(w: Walk, vip: string, lb?: HnsLoadBalancer): { kind: 'external' | 'cluster' | 'unknown'; range?: ServiceRange } {
  const svc = k8sNames(w.ctx.model).serviceByVip(vip);
  if (!svc) {
    // An HNS port mapping flagged ILB (internal load balancer: hcsshim hcn LoadBalancerPortMappingFlagsILB)
    // serves the cluster's own traffic only.
    if (lb?.ports.some((x) => x.ilb)) return { kind: 'cluster' };
    // The API server allocates ClusterIPs from the Service range; an external IP could be set inside
    // it, but that would shadow ClusterIPs, so an address there is taken as a ClusterIP.
    const range = serviceRangeOf(w.ctx.model, vip);
    return range ? { kind: 'cluster', range } : { kind: 'unknown' };
  }
  const c = canonIp(vip);
  if ([...svc.externalIps, ...svc.loadBalancerIps].some((x) => canonIp(x) === c)) return { kind: 'external' };
  if (svc.clusterIps.some((x) => canonIp(x) === c)) return { kind: 'cluster' };
  return { kind: 'unknown' };
}

/**
 * A packet from outside the node to an address an HNS load balancer publishes (a NodePort, a
 * LoadBalancer ingress IP, an external IP): no rule on the uplink translated it, so the walk follows
 * the HNS load balancer (the VFP rule that applies it on a real node is not in the port dumps), as a
 * real node's HNS does: DNAT to one of its backends and, when it is no DSR load balancer and HNS names
 * a SourceVIP, SNAT to that SourceVIP (kube-proxy passes its source VIP to every load balancer it
 * creates — kubernetes/kubernetes#70896 "--source-vip"; kubernetes/kubernetes#96499: the SourceVIP of a
 * load balancer policy is the address load-balanced traffic is sourced from, the node IP on L2Bridge).
 */
function hnsLoadBalance(w: Walk, lb: HnsLoadBalancer, what: string, opts: WalkOptions, depth: number, assumption?: string): boolean {
  const { ctx } = w;
  const p = w.packet;
  const backends = lb.endpointIds.map((id) => ctx.endpointsById.get(id.toLowerCase())).filter((e): e is HnsEndpoint => !!e && !!(e.ip || e.ipv6));
  const fam = familyOf(p.dstIp);
  // ExternalTrafficPolicy=Local programs the load balancer as DSR with local endpoints only (winkernel proxier.go).
  const usable = backends.filter((e) => (fam === 6 ? e.ipv6 : e.ip) && (!lb.dsr || !e.isRemote));
  const port = lb.ports.find((x) => x.externalPort === p.dstPort && x.protocol === protoNumber(p));
  if (!usable.length) {
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: what.startsWith('NodePort') ? 'NodePort without backend' : 'no backend',
      effect: { kind: 'drop', why: 'no-lb' },
      inferred: true,
      evidence: lb.src,
      note: `HNS load balancer ${short(lb.id)} publishes ${what} but none of its endpoints is ${lb.dsr ? 'local (ExternalTrafficPolicy Local programs local endpoints only)' : 'in this bundle'}`,
      nodes: [`loadbalancer:${lb.id}`],
    });
    w.end('dropped', `${what}: no backend`, i);
    return true;
  }
  const forced = w.flow.dip ? usable.find((e) => canonIp(e.ip) === canonIp(w.flow.dip) || canonIp(e.ipv6) === canonIp(w.flow.dip)) : undefined;
  const pick = forced ?? usable[hashTuple(p) % usable.length];
  const dip = (fam === 6 ? pick.ipv6 : pick.ip)!;
  const before = { ...p };
  w.packet = { ...p, dstIp: dip, dstPort: port?.internalPort ?? p.dstPort };
  const snatTo = !lb.dsr && lb.sourceVip && familyOf(lb.sourceVip) === fam && w.sourceKind === 'outside' ? lb.sourceVip : undefined;
  if (snatTo) w.packet.srcIp = snatTo;
  w.dnatDip = canonIp(dip);
  w.viaHnsLb = true;
  const backendName = k8sNames(ctx.model).podLabel(dip);
  w.add({
    at: what.startsWith('NodePort') ? 'vSwitch (NodePort)' : 'vSwitch (load balancer)',
    kind: 'note',
    action: snatTo ? 'DNAT + SNAT' : 'DNAT',
    effect: { kind: 'lb', by: 'hns', mode: 'dnat', backend: dip, nodePort: what.startsWith('NodePort') || undefined },
    rewrite: { dstIp: dip, dstPort: w.packet.dstPort !== p.dstPort ? w.packet.dstPort : undefined, srcIp: snatTo },
    evidence: lb.src,
    inferred: true,
    stateful: true,
    note: [
      `no VFP rule on the ${w.sourceKind === 'pod' ? 'source port' : 'uplink'} translated ${what}; HNS load balancer ${short(lb.id)} publishes it (${usable.length} backend${usable.length > 1 ? 's' : ''}${lb.dsr ? ', DSR' : ''}), and the rule that applies it on a real node is not in this bundle's port dumps: the walk follows HNS${forced ? '' : usable.length > 1 ? ' and takes one backend by a hash of the 5-tuple' : ''}`,
      backendName ? `backend ${dip} is pod ${backendName}` : undefined,
      snatTo ? `the load balancer is not DSR and HNS names SourceVIP ${snatTo}: the client address ${p.srcIp} is replaced by it, so the backend answers the node, whose flow state returns the answer to the client` : undefined,
      assumption,
    ]
      .filter(Boolean)
      .join('; '),
    alternatives: usable.filter((e) => e !== pick).map((e) => (fam === 6 ? e.ipv6 : e.ip)!),
    before,
    after: { ...w.packet },
    nodes: [`loadbalancer:${lb.id}`, `endpoint:${pick.id}`],
  });
  if (!snatTo && !lb.dsr && pick.isRemote && w.sourceKind === 'outside') {
    // kubernetes/kubernetes#96499: kube-proxy gives load balancers a SourceVIP so that traffic to
    // backends on other nodes is sourced from this node; without one, the client's address reaches
    // the backend, whose answer leaves its own node straight to the client.
    w.caveat({
      kind: 'no-return',
      hop: w.hops.length - 1,
      text: `backend ${dip} is on another node and HNS names no SourceVIP for this load balancer: the client address ${p.srcIp} is kept, so the backend answers it from its own node and address, not through this node's load-balancer state (asymmetric return; the client drops an answer from ${dip})`,
      source: 'kubernetes/kubernetes#96499 (the SourceVIP of a load balancer policy for remote endpoints)',
    });
  }
  forward(w, undefined, opts, depth + 1);
  return true;
}

function hashTuple(p: Packet): number {
  const s = `${p.srcIp}|${p.srcPort ?? ''}|${p.dstIp}|${p.dstPort ?? ''}|${p.proto}`;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function leaveEncapsulated(w: Walk): void {
  const { ctx } = w;
  const p = w.packet;
  const enc = p.encap!;
  const via = p.paRoute?.ifIndex !== undefined ? ctx.ifAddr.get(p.paRoute.ifIndex) : undefined;
  const route = familyOf(enc.dstIp) === 4 ? lookupRoute(ctx, enc.dstIp, via) : undefined;
  const constraint =
    p.paRoute?.ifIndex !== undefined
      ? via
        ? route
          ? `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex} (${via})`
          : `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex} (${via}), which has no route to ${enc.dstIp}`
        : `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex}, which the bundle's interface list does not name`
      : '';
  const i = w.add({
    at: 'uplink',
    kind: 'uplink',
    action: `${enc.type} encap`,
    rewrite: { encap: { type: enc.type, dstIp: enc.dstIp, vni: enc.vni } },
    evidence: route?.route.src,
    inferred: p.paRoute?.ifIndex !== undefined && (!via || !route) ? true : undefined,
    note: `outer packet ${enc.srcIp ?? ctx.nodeIp ?? '?'} → ${enc.dstIp}${enc.vni !== undefined ? `, VNI ${enc.vni}` : ''}; inner ${p.srcIp} → ${p.dstIp}${constraint}`,
    nodes: [...(ctx.extPort ? [`port:${ctx.extPort.key}`] : []), `next-hop:${enc.dstIp}`],
  });
  w.egress = { encapDst: enc.dstIp, nextHop: route && !route.route.onLink ? route.route.gateway : enc.dstIp, interface: route?.route.interface ?? via };
  const remote = ctx.remote.get(canonIp(p.dstIp) ?? '');
  // The encap rule decided where the packet goes; the uplink only carries it out.
  let encapHop = i - 1;
  while (encapHop > 0 && !w.hops[encapHop].rewrite?.encap) encapHop--;
  w.end('forwarded', `encapsulated (${enc.type}${enc.vni !== undefined ? ` VNI ${enc.vni}` : ''}) to the provider address ${enc.dstIp}${remote ? ` where pod ${p.dstIp} lives` : ''}`, encapHop > 0 && encapHop !== i ? encapHop : i);
}

function routeOut(w: Walk, opts: WalkOptions): void {
  const { ctx } = w;
  const p = w.packet;
  const v6 = familyOf(p.dstIp) === 6;
  if (v6 ? !ctx.routes6 : !ctx.routes) {
    w.add({ at: 'host routing', kind: 'host-route', action: 'unknown', inferred: true, note: 'routes.txt is missing: the next hop cannot be read' });
    w.end('unknown', `${p.dstIp} is not on this node and routes.txt is missing, so the next hop is unknown`);
    return;
  }
  let nextHop: string | undefined;
  let iface: string | undefined;
  let routeHop: number;
  let onLinkText: string;
  const remote = ctx.remote.get(canonIp(p.dstIp) ?? '');
  if (v6) {
    const r6 = lookupRoute6(ctx, p.dstIp);
    if (!r6) {
      const i = w.add({ at: 'host routing', kind: 'host-route', action: 'no route', effect: { kind: 'drop', why: 'no-route' }, note: `no IPv6 route in the node's table covers ${p.dstIp} (and there is no ::/0 route)` });
      w.end('dropped', `no IPv6 route to ${p.dstIp} in routes.txt`, i);
      return;
    }
    const r = r6.route;
    nextHop = r.onLink ? p.dstIp : r.gateway;
    iface = `ifIndex ${r.ifIndex}`;
    onLinkText = r.onLink ? `the on-link network of interface index ${r.ifIndex}` : `next hop ${r.gateway}`;
    routeHop = w.add({
      at: 'host routing',
      kind: 'host-route',
      action: r.onLink ? 'on-link' : `via ${r.gateway}`,
      evidence: r.src,
      note: `route ${r.destination}${r.destination.includes('/') ? '' : `/${r6.bits}`} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on interface index ${r.ifIndex} metric ${r.metric}`,
      nodes: [`next-hop:${nextHop}`],
    });
  } else {
    const route = lookupRoute(ctx, p.dstIp);
    if (!route) {
      const i = w.add({ at: 'host routing', kind: 'host-route', action: 'no route', effect: { kind: 'drop', why: 'no-route' }, note: `no route in the node's table covers ${p.dstIp} (and there is no default route)` });
      w.end('dropped', `no route to ${p.dstIp} in routes.txt`, i);
      return;
    }
    const r = route.route;
    nextHop = r.onLink ? p.dstIp : r.gateway;
    iface = r.interface;
    onLinkText = r.onLink ? `the on-link network of ${r.interface}` : `next hop ${r.gateway}`;
    // Overlay pods are reachable only inside VXLAN: a pod address leaving bare is lost in the underlay.
    // Only HNS's own remote subnets say an address is a pod behind VXLAN; other remote endpoints (the
    // API server, node addresses) are reached through the underlay.
    const rsr = (ctx.model.networks ?? []).some((n) => n.type === 'overlay') ? ctx.hns.remoteSubnetFor(p.dstIp) : undefined;
    if (rsr) {
      // An lbnat rule with a map space can encapsulate to its backend itself (vfpctrl `/?` lbnat
      // "[[space]]" and flag "262144: Encap"); the printed data does not say whether it does.
      const lbHop = [...w.hops].reverse().find((h) => h.kind === 'vfp' && h.effect?.kind === 'lb' && h.effect.mode === 'dnat' && canonIp(h.after?.dstIp) === canonIp(p.dstIp));
      const lbRule = lbHop ? ruleOfHop(w, lbHop) : undefined;
      const mapSpace = lbRule ? ruleEffect(lbRule).mapSpace : undefined;
      if (w.viaHnsLb && canonIp(p.dstIp) === w.dnatDip) {
        // The load balancing itself was read from HNS; so is the tunnel to the backend's node.
        const enc = { type: 'VXLAN', srcIp: ctx.nodeIp, dstIp: rsr.pa, vni: rsr.vni, dstMac: rsr.mac };
        w.add({
          at: 'vSwitch',
          kind: 'note',
          action: 'encap',
          rewrite: { encap: { type: enc.type, dstIp: enc.dstIp, vni: enc.vni } },
          inferred: true,
          evidence: rsr.src,
          note: `the backend is on another node: the HNS load balancer's traffic is taken as tunnelled to its RemoteSubnetRoute ${rsr.prefix} → ${rsr.pa}`,
          before: { ...p },
          after: { ...p, encap: enc },
        });
        w.packet = { ...p, encap: enc };
        leaveEncapsulated(w);
        return;
      }
      if (mapSpace) {
        const enc = { type: 'VXLAN', srcIp: ctx.nodeIp, dstIp: rsr.pa, vni: rsr.vni, dstMac: rsr.mac };
        w.add({
          at: 'vSwitch',
          kind: 'note',
          action: 'encap (map space)',
          rewrite: { encap: { type: enc.type, dstIp: enc.dstIp, vni: enc.vni } },
          inferred: true,
          unmodelled: `${lbHop!.rule} names map space ${mapSpace} but prints no encap setting: whether VFP tunnels the packet to its remote backend through it is not in the bundle`,
          evidence: lbHop!.evidence,
          note: `taken as tunnelled to HNS RemoteSubnetRoute ${rsr.prefix} → ${rsr.pa} (inferred)`,
          before: { ...p },
          after: { ...p, encap: enc },
        });
        w.packet = { ...p, encap: enc };
        leaveEncapsulated(w);
        return;
      }
      const i = w.add({
        at: 'vSwitch',
        kind: 'drop',
        action: 'no encap',
        effect: { kind: 'drop', why: 'no-encap' },
        inferred: true,
        evidence: rsr.src,
        note: `HNS has RemoteSubnetRoute ${rsr.prefix} → PA ${rsr.pa}, but no encap rule on the source port encapsulated the packet (HNS and VFP disagree)`,
        nodes: [`next-hop:${rsr.pa}`],
      });
      w.end('dropped', `no encap rule (REMOTESUBNETROUTE or map encap) covers ${p.dstIp} (pod subnet ${rsr.prefix} on ${rsr.pa}): on an overlay network the pod packet would leave unencapsulated via ${r.onLink ? r.interface : r.gateway} and be lost`, i);
      return;
    }
    routeHop = w.add({
      at: 'host routing',
      kind: 'host-route',
      action: r.onLink ? 'on-link' : `via ${r.gateway}`,
      evidence: r.src,
      note: `route ${r.destination}/${route.bits} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on interface ${r.interface ?? '?'} metric ${r.metricText}${remote ? `; ${p.dstIp} is a pod on another node (remote endpoint ${short(remote.id)})` : ''}${route.bits === 0 && (ctx.remote.has(canonIp(p.dstIp) ?? '') || ctx.local.has(canonIp(p.dstIp) ?? '')) ? `; ${defaultRouteToPod(w)}` : ''}`,
      nodes: [`next-hop:${nextHop}`],
    });
  }
  if (ctx.extPort?.policy && ctx.model.vfp) {
    const policy = ctx.model.vfp.getPolicy(ctx.extPort.key);
    if (policy) {
      const res = walkPort(policy, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, 'IN', w.packet, portCtx(w), opts);
      for (const h of res.hops) w.add({ ...h, nodes: [`port:${ctx.extPort.key}`] });
      w.packet = res.packet;
      if (res.droppedAt !== undefined) {
        w.end('dropped', res.reason ?? 'dropped on the uplink', w.hops.length - res.hops.length + res.droppedAt);
        return;
      }
    }
  }
  const sendHop = w.add({ at: 'uplink', kind: 'uplink', action: 'send', note: `leaves the node towards ${nextHop}`, nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [] });
  w.egress = { nextHop, interface: iface };
  // A pod's own address leaving by the default route (no SNAT, no pod on another node) is answered only
  // if the network beyond routes that address back: say so on the request, not only on a walked reply.
  const leaving = canonIp(w.packet.srcIp) ?? '';
  const viaDefault = v6 ? lookupRoute6(ctx, p.dstIp)?.bits === 0 : lookupRoute(ctx, p.dstIp)?.bits === 0;
  if (!w.reply && w.sourceKind === 'pod' && ctx.local.has(leaving) && !remote && viaDefault) {
    w.caveat({
      kind: 'no-return',
      hop: sendHop,
      text: `the packet leaves the node with the pod's own address ${w.packet.srcIp} (not SNATed): an answer arrives only if the network outside routes ${w.packet.srcIp} back to this node`,
      source: 'microsoft/hcsshim hcn/hcnpolicy.go (OutboundNatPolicySetting: outbound NAT on an endpoint, with Exceptions); no OutboundNAT rule rewrote this packet',
    });
  }
  // The route chose the next hop: it decides a forwarded packet.
  const first = w.hops[0]?.after?.srcIp;
  w.end('forwarded', `leaves the node via ${onLinkText}${first !== undefined && w.packet.srcIp !== first ? ` with source ${w.packet.srcIp} (SNAT)` : ''}`, routeHop);
}

/**
 * What it means that only the default route covers a pod address: it depends on how the network
 * plugin carries pods' traffic between nodes (analysis/platform facts, each with its source). With
 * host routes (flannel host-gw, Antrea, Calico BGP) a route per node's pod subnet is expected and
 * missing; with Azure CNI, Azure CNI Overlay or the EKS VPC CNI the cloud fabric routes pod
 * addresses, so the default route towards it is the way.
 */
function defaultRouteToPod(w: Walk): string {
  const plat = detectPlatform(w.ctx.model);
  const f = factsOf(plat.plugin);
  const how = f?.crossNode.how;
  if (how === 'host-routes') return `only the default route covers this pod address: with ${f!.label} a route per node's pod subnet is expected (${f!.crossNode.source}), and the one for this address is missing`;
  if (how === 'fabric') return `only the default route covers this pod address, as expected with ${f!.label}: the cloud network carries pod addresses between nodes (${f!.crossNode.source})`;
  if (how === 'remote-subnet-routes') return `only the default route covers this pod address: with ${f!.label} pods on other nodes are reached through a RemoteSubnetRoute, and none covers it`;
  return 'only the default route covers this pod address; the network plugin is not known, so whether the network beyond carries pod addresses or a route per node\'s pod subnet is missing cannot be said';
}

function deliverTo(w: Walk, port: VfpPortRef | undefined, label: string, node: string | undefined, ep: HnsEndpoint | undefined, opts: WalkOptions): void {
  const m = w.ctx.model;
  const nodes = [...(port ? [`port:${port.key}`] : []), ...(node ? [node] : [])];
  if (!port || !m.vfp || !port.policy) {
    const i = w.add({ at: label, kind: 'deliver', action: 'deliver', inferred: true, note: !m.vfp ? 'vfpOutput.txt is missing: the destination port\'s IN rules are not in the bundle' : `the destination's VFP port has no rules in the bundle; delivery is assumed`, nodes });
    w.end('delivered', `reaches ${label} (the destination port's rules are not in the bundle)`, i);
    return;
  }
  const policy = m.vfp.getPolicy(port.key);
  if (!policy) {
    w.end('unknown', `the rules of port ${port.name} could not be read`);
    return;
  }
  if (policy.blocked) {
    const i = w.add({ at: `${label} IN`, kind: 'drop', port: port.name, action: 'drop', effect: { kind: 'drop', why: 'blocked-port' }, evidence: port.policy.src, note: 'the destination port is blocked (get-port-state Blocked : TRUE)', nodes });
    w.end('dropped', `VFP port ${port.name} of ${label} is blocked`, i);
    return;
  }
  const ownIp = ep ? (familyOf(w.packet.dstIp) === 6 ? ep.ipv6 : ep.ip) : undefined;
  const r = walkPort(policy, `port ${short(port.name)} (${label})`, 'IN', w.packet, portCtx(w, ownIp), opts);
  for (const h of r.hops) w.add({ ...h, nodes: [node ?? `port:${port.key}`] });
  w.packet = r.packet;
  if (r.droppedAt !== undefined) {
    w.end('dropped', r.reason ?? 'dropped', w.hops.length - r.hops.length + r.droppedAt);
    return;
  }
  const adapter = ep ? w.ctx.adapterOf.get(ep.id) : undefined;
  if (ep && !adapter && !vnicOptional(w, ep)) {
    // An HNS endpoint whose vNIC is in no compartment (the containerd/Windows async-vNIC case) has no
    // network stack behind its port: nothing receives the packet (sig-network thread "CNI check
    // windows vNICs", ../shared/seeds; the endpoint-without-vnic check).
    const known = !!m.ip;
    const i = w.add({
      at: label,
      kind: known ? 'drop' : 'note',
      action: known ? 'no vNIC' : 'vNIC not checked',
      effect: known ? { kind: 'drop', why: 'no-vnic' } : { kind: 'pass' },
      evidence: ep.src,
      inferred: true,
      note: known
        ? `endpoint ${short(ep.id)} has no adapter in any compartment of ip.txt: its VFP port exists but no network stack is behind it, so nothing receives the packet`
        : 'ip.txt is missing: whether this endpoint has its vNIC in a compartment (and so receives the packet) cannot be checked',
      nodes: node ? [node] : [],
    });
    if (known) w.end('dropped', `${label} has no vNIC in any compartment (endpoint ${short(ep.id)}): nothing receives the packet`, i);
    else w.end('unknown', `${label}: ip.txt is missing, so whether its vNIC exists to receive the packet is not in the bundle`, i);
    return;
  }
  const notMine = ep && ownIp && canonIp(w.packet.dstIp) !== canonIp(ownIp);
  const i = w.add({
    at: label,
    kind: 'deliver',
    action: 'deliver',
    evidence: adapter?.adapter.src ?? ep?.src,
    inferred: notMine || undefined,
    note: [
      adapter ? `to ${adapter.adapter.name} in compartment ${adapter.compartment.id}` : undefined,
      notMine ? `the packet is still addressed to ${w.packet.dstIp}, not to the pod's own ${ownIp}: no rule on its port translated it, and the pod's stack will not accept it` : undefined,
    ]
      .filter(Boolean)
      .join('; ') || undefined,
    nodes: node ? [node] : [],
  });
  if (notMine) {
    // The rules networkhealth.ps1 (DSRLoadBalancerPolicyVfpRules) expects on a DSR backend's port.
    const x = dsrExpectations(w.packet.dstIp, w.packet.dstPort ?? 0, protoNumber(w.packet));
    const where = port ? ` of port ${port.name}` : '';
    w.caveat({
      kind: 'black-hole',
      hop: i,
      text: `${label} receives a packet addressed to ${w.packet.dstIp}: the direct-server-return rule that should turn it into ${ownIp}, ${expectedName(x.backendIn)} in ${x.backendIn.layer} / ${x.backendIn.group}${where}, is missing`,
      source: 'microsoft/SDN Kubernetes/windows/debug/networkmonitor/networkhealth.ps1 (DSRLoadBalancerPolicyVfpRules)',
    });
    w.end('dropped', `reaches ${label} still addressed to ${w.packet.dstIp}, which the pod does not own`, i);
    return;
  }
  w.packet = { ...w.packet };
  delete w.packet.l2Dst;
  // The last rule that let the packet in is what a reader wants named.
  let lastRule = i - 1;
  while (lastRule >= 0 && w.hops[lastRule].kind !== 'vfp') lastRule--;
  w.end('delivered', `delivered to ${label}`, lastRule >= 0 ? lastRule : i);
}

/** A remote endpoint has its vNIC on another node: only a local endpoint without an adapter misses one. */
function vnicOptional(_w: Walk, ep: HnsEndpoint): boolean {
  return !!ep.isRemote;
}

// --- the reply -----------------------------------------------------------------------------------

/**
 * The reply of a walked request, as a walk of its own: it starts where the request ended (the pod or
 * host it reached, or the network beyond the uplink), crosses the layers back, and the flows the
 * request created let it through and undo their rewrites. Its verdict says whether the source gets it
 * as the answer to its own connection.
 */
export function walkReply(m: NodeModel, fwd: WalkResult, opts: WalkOptions = {}): WalkResult {
  const proto = fwd.final.proto;
  const sent = reverse(fwd.final);
  const flow: Flow = { srcIp: sent.srcIp, dstIp: sent.dstIp, srcPort: sent.srcPort, dstPort: sent.dstPort, proto };
  const none = (verdict: WalkResult['verdict'], reason: string, caveats: WalkCaveat[] = [], inferred = false): WalkResult => ({
    flow,
    verdict,
    reason,
    hops: [],
    deciding: -1,
    final: { ...sent },
    egress: {},
    path: [],
    kind: 'reply',
    dependsOnUnmodelled: !!fwd.dependsOnUnmodelled,
    inferred,
    caveats,
  });
  if (fwd.verdict !== 'delivered' && fwd.verdict !== 'forwarded') return none('unknown', `the request is ${fwd.verdict === 'dropped' ? 'dropped' : 'not known to arrive'}: there is no reply to walk`);
  const icmp = (fwd.caveats ?? []).find((c) => c.kind === 'icmp');
  if (icmp && fwd.verdict === 'forwarded') return none('dropped', `no echo reply: ${icmp.text}`, [icmp], true);
  const flows = FlowTable.fromHops(fwd.hops);
  const r = runWalk(m, flow, { ...opts, reply: false }, { fwd, flows });
  // What the source expects: its own request, reversed.
  // A host source takes the outgoing interface's address (hostEgress): that is the socket's address.
  const chosenSrc = fwd.hops.find((h) => h.kind === 'host-route' && h.rewrite?.srcIp)?.rewrite?.srcIp;
  const asSent: Tuple = { srcIp: chosenSrc ?? fwd.flow.srcIp, dstIp: fwd.flow.dstIp, srcPort: fwd.hops[0]?.after?.srcPort ?? fwd.flow.srcPort, dstPort: fwd.flow.proto === 'icmp' ? undefined : fwd.flow.dstPort, proto };
  const expected = reverse(asSent);
  if (r.verdict === 'delivered' || r.verdict === 'forwarded') {
    if (sameTuple(r.final, expected)) r.reason += `; it is the answer ${fmt(expected.srcIp, expected.srcPort)} → ${fmt(expected.dstIp, expected.dstPort)} the source expects`;
    else {
      const stateless = (fwd.caveats ?? []).filter((c) => c.kind === 'stateless-rewrite').map((c) => c.text);
      const text = `the source expects ${fmt(expected.srcIp, expected.srcPort)} → ${fmt(expected.dstIp, expected.dstPort)} but gets ${fmt(r.final.srcIp, r.final.srcPort)} → ${fmt(r.final.dstIp, r.final.dstPort)}: its connection will not accept it${stateless.length ? ` (${stateless.join('; ')})` : ''}`;
      r.caveats!.push({ kind: 'reply-mismatch', text });
      r.reason += `; but ${text}`;
    }
  }
  // A request that left the node with a pod's own address is answered only if the network outside
  // routes that address back here.
  const fwdSrc = canonIp(fwd.final.srcIp) ?? '';
  const ctx = walkContext(m);
  if (fwd.verdict === 'forwarded' && !fwd.egress.encapDst && ctx.local.has(fwdSrc) && !ctx.remote.has(canonIp(fwd.final.dstIp) ?? '')) {
    r.caveats!.push({
      kind: 'no-return',
      text: `the request left the node with the pod's own address ${fwd.final.srcIp} (not SNATed): this reply arrives only if the network outside routes ${fwd.final.srcIp} back to this node`,
    });
    r.inferred = true;
  }
  return r;
}
