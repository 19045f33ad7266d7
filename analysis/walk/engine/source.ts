// Stage 1, the source: a pod (its compartment, then its port's OUT groups), the host (the vNIC its
// route table names), or the wire (the uplink's OUT groups).
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../../parsers/hns/index.ts';
import type { Flow, WalkHop } from '../types.ts';
import { lookupRoute, lbKey, type RouteEntry } from '../context.ts';
import { interfaceText } from '../active-routes.ts';
import { walkPort, type WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf, inCidr, ipToInt, maskBits } from '../ip.ts';
import { prefixMaskUint } from '../../../parsers/net/ip.ts';
import { protoNumber } from '../match.ts';
import { k8sNames } from '../../k8s/index.ts';
import { undoHnsFlows } from './undo-flows.ts';
import { EPHEMERAL, short, shortName, Walk, portCtx, macKey } from './state.ts';

/** 127.0.0.0/8 or ::1. */
const isLoopback = (ip: string): boolean => ip.startsWith('127.') || canonIp(ip) === '::1';
import { arriveOnUplink, walkUplink } from './uplink.ts';
import { forward } from './vswitch.ts';

export function run(w: Walk, flow: Flow, opts: WalkOptions): void {
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

  // A loopback destination never leaves the sender's own network stack (RFC 1122 §3.2.1.3: 127/8;
  // RFC 4291 §2.5.3: ::1): no vNIC, VFP port or vSwitch sees it. Its reply is the same stack answering.
  const self = isLoopback(flow.dstIp) ? src : isReply && isLoopback(flow.srcIp) ? canonIp(flow.dstIp) : undefined;
  if (self && (ctx.local.has(self) || ctx.hostIps.has(self))) {
    const ep = ctx.local.get(self);
    const label = ep ? `pod ${self}` : `host ${self}`;
    const i = w.add({
      at: label,
      kind: 'deliver',
      action: 'loopback',
      note: `${flow.dstIp} is ${isLoopback(flow.dstIp) ? 'the loopback address' : 'the sender itself'}: the packet stays in the network stack of ${label} and reaches no vNIC, VFP port or the vSwitch`,
      after: { ...w.packet },
      nodes: ep ? [`endpoint:${ep.id}`] : [],
    });
    w.sourceKind = ep ? 'pod' : 'host';
    w.end('delivered', `delivered to ${label} itself: the loopback address never leaves its network stack`, i);
    return;
  }

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
        action: r.onLink ? `on-link via ${interfaceText(r)}` : `via ${r.gateway} on ${interfaceText(r)}`,
        evidence: r.src,
        inferred: eg.srcIp ? true : undefined,
        rewrite: eg.srcIp ? { srcIp: eg.srcIp } : undefined,
        before: eg.srcIp ? before : undefined,
        after: eg.srcIp ? { ...w.packet } : undefined,
        note: [
          `route ${r.destination}/${eg.route.bits} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on ${r.interface ? `interface ${r.interface}` : interfaceText(r)} metric ${r.metricText}: the host sends through ${eg.port ? `vNIC ${eg.port.friendlyName ?? short(eg.port.name)}` : (r.interface ? `the adapter with address ${r.interface}` : `the adapter of ${interfaceText(r)}`)}`,
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
    if (!walkUplink(w, 'OUT', opts)) return;
  }

  // --- forwarding ------------------------------------------------------------------------------
  forward(w, srcPolicyPort, opts, 0);
}

/**
 * Where the host sends a packet: the route Windows picks for the destination (longest prefix, then
 * metric), its interface's host vNIC and that interface's address. A host address that is not the
 * outgoing interface's is replaced by it (`srcIp`): Windows sends by the strong host model, the
 * source address belongs to the sending interface (TechNet Magazine, The Cable Guy, "Strong and Weak Host Models",
 * November 2007; RFC 6724 §5 rule 5). Undefined when the route table does not say, or when the
 * route leaves through the node's usual host vNIC with the address the walk was given.
 */
export function hostEgress(w: Walk, dstIp: string): { route: RouteEntry; port?: VfpPortRef; srcIp?: string } | undefined {
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

export function compartmentHop(w: Walk, ep: HnsEndpoint, dstIp: string): void {
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
    const mask = prefixMaskUint(bits);
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
export function walkSourcePort(w: Walk, port: VfpPortRef | undefined, label: string, owner: string, opts: WalkOptions, ownerNode?: string, ownerIp?: string): boolean {
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
export function noteDnat(w: Walk, hops: WalkHop[]): void {
  for (const h of hops) {
    if (h.flow || !h.after || h.superseded) continue;
    const e = h.effect;
    if (e?.kind === 'lb' && e.by === 'vfp' && e.backend) w.dnatDip = canonIp(e.backend);
  }
}

/** A load-balancing hop's note with the Kubernetes name of the backend it chose, when the bundle's kubectl snapshot has it. */
export function withBackendName(w: Walk, h: WalkHop): string | undefined {
  if (h.effect?.kind !== 'lb' || !h.after || h.flow) return h.note;
  const dip = h.after.l2Dst ?? h.after.dstIp;
  const pod = k8sNames(w.ctx.model).podLabel(dip);
  return pod ? [h.note, `backend ${dip} is pod ${pod}`].filter(Boolean).join('; ') : h.note;
}

/**
 * The graph nodes a hop on a port lights: the port's owner (a pod's port is drawn as its endpoint);
 * for a load-balancing hop, the load balancer and the backend it chose.
 */
export function hopNodes(w: Walk, h: WalkHop, owner: string | undefined): string[] | undefined {
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
