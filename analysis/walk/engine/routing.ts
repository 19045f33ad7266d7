// Stage 3, routing: the host route table's next hop for a packet that leaves the node, and what an
// overlay pod address without encapsulation means.
import { lookupRoute, lookupRoute6 } from '../context.ts';
import { interfaceText } from '../active-routes.ts';
import type { WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf } from '../ip.ts';
import { detectPlatform, factsOf } from '../../platform/index.ts';
import { ruleEffect } from '../../../parsers/vfp/index.ts';
import { short, Walk, ruleOfHop } from './state.ts';
import { leaveEncapsulated, walkUplink } from './uplink.ts';
import { freePodAddress, multicast, neverForwarded } from './nowhere.ts';
import { hostDropNote, hostToRemoteSubnet } from './host-overlay.ts';
import { remoteIsPod, remoteWords } from '../remote-pod.ts';
import { unusedServiceAddress } from '../unused-service-address.ts';
import { overlayPodGateway } from '../overlay-gateway.ts';
import { fabricCarriesBack } from '../fabric-return.ts';

export function routeOut(w: Walk, opts: WalkOptions): void {
  const { ctx } = w;
  const p = w.packet;
  const v6 = familyOf(p.dstIp) === 6;
  // Addresses nothing beyond the node answers (RFC 6890 blocks, a free address of the node's own pod
  // subnet, a multicast group, an overlay pod's own distributed router) end here, before the route table
  // sends them to a gateway (nowhere.ts, overlay-gateway.ts).
  if (multicast(w) || neverForwarded(w) || freePodAddress(w) || unusedServiceAddress(w) || overlayPodGateway(w)) return;
  if (v6 ? !ctx.routes6 : !ctx.routes) {
    w.add({ at: 'host routing', kind: 'host-route', action: 'unknown', inferred: true, note: 'routes.txt is missing: the next hop cannot be read' });
    w.end('unknown', `${p.dstIp} is not on this node and routes.txt is missing, so the next hop is unknown`);
    return;
  }
  // A route table that lists no IPv6 route at all is as silent as a missing routes.txt: a host with IPv6
  // on lists at least its loopback ::1/128 (RFC 4291 §2.5.3; `route print` prints it on-link), so the
  // collection left IPv6 out (`route print -4`) or IPv6 is off — the bundle cannot tell (inferred).
  if (v6 && !ctx.routes6?.length) {
    w.add({ at: 'host routing', kind: 'host-route', action: 'unknown', inferred: true, note: 'routes.txt lists no IPv6 route (IPv6 not collected, or not configured): the next hop cannot be read' });
    w.end('unknown', `${p.dstIp} is not on this node and routes.txt lists no IPv6 route (IPv6 not collected, or not configured), so the next hop is unknown (insufficient information)`);
    return;
  }
  let nextHop: string | undefined;
  let iface: string | undefined;
  let routeHop: number;
  let onLinkText: string;
  const remote = ctx.remote.get(canonIp(p.dstIp) ?? '');
  // A remote endpoint is not always a pod (the API server's: remote-pod.ts).
  const remotePod = remote ? remoteIsPod(ctx, remote) : undefined;
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
    onLinkText = r.onLink ? `the on-link network of ${interfaceText(r)}` : `next hop ${r.gateway}`;
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
      // The host's own packet: the encap may be on another port (host-overlay.ts).
      const host = w.sourceKind === 'host' && !w.reply;
      if (host && hostToRemoteSubnet(w, rsr)) return;
      const i = w.add({
        at: 'vSwitch',
        kind: 'drop',
        action: 'no encap',
        effect: { kind: 'drop', why: 'no-encap' },
        inferred: true,
        evidence: rsr.src,
        note: `HNS has RemoteSubnetRoute ${rsr.prefix} → PA ${rsr.pa}, but no encap rule on the source port encapsulated the packet (HNS and VFP disagree)${host ? hostDropNote() : ''}`,
        nodes: [`next-hop:${rsr.pa}`],
      });
      w.end('dropped', `no encap rule (REMOTESUBNETROUTE or map encap) covers ${p.dstIp} (pod subnet ${rsr.prefix} on ${rsr.pa}): on an overlay network the pod packet would leave unencapsulated via ${r.onLink ? interfaceText(r) : r.gateway} and be lost`, i);
      return;
    }
    routeHop = w.add({
      at: 'host routing',
      kind: 'host-route',
      action: r.onLink ? 'on-link' : `via ${r.gateway}`,
      evidence: r.src,
      note: `route ${r.destination}/${route.bits} ${r.onLink ? 'on-link' : `via ${r.gateway}`} on ${r.interface ? `interface ${r.interface}` : interfaceText(r)} metric ${r.metricText}${remote ? `; ${remoteWords(remotePod, p.dstIp, short(remote.id), ctx)}` : ''}${route.bits === 0 && remotePod !== false && (ctx.remote.has(canonIp(p.dstIp) ?? '') || ctx.local.has(canonIp(p.dstIp) ?? '')) ? `; ${defaultRouteToPod(w)}` : ''}`,
      nodes: [`next-hop:${nextHop}`],
    });
  }
  if (!walkUplink(w, 'IN', opts)) return;
  const sendHop = w.add({ at: 'uplink', kind: 'uplink', action: 'send', note: `leaves the node towards ${nextHop}`, nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [] });
  w.egress = { nextHop, interface: iface };
  // A pod's own address leaving by the default route (no SNAT, no pod on another node) is answered only
  // if the network beyond routes that address back: say so on the request, not only on a walked reply.
  const leaving = canonIp(w.packet.srcIp) ?? '';
  const viaDefault = v6 ? lookupRoute6(ctx, p.dstIp)?.bits === 0 : lookupRoute(ctx, p.dstIp)?.bits === 0;
  // Not where the plugin's cloud network carries pod addresses back (fabric-return.ts).
  if (!w.reply && w.sourceKind === 'pod' && ctx.local.has(leaving) && !remote && viaDefault && !fabricCarriesBack(ctx, w.packet.srcIp, p.dstIp)) {
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
export function defaultRouteToPod(w: Walk): string {
  const plat = detectPlatform(w.ctx.model);
  const f = factsOf(plat.plugin);
  const how = f?.crossNode.how;
  if (how === 'host-routes') return `only the default route covers this pod address: with ${f!.label} a route per node's pod subnet is expected (${f!.crossNode.source}), and the one for this address is missing`;
  if (how === 'fabric') return `only the default route covers this pod address, as expected with ${f!.label}: the cloud network carries pod addresses between nodes (${f!.crossNode.source})`;
  if (how === 'remote-subnet-routes') return `only the default route covers this pod address: with ${f!.label} pods on other nodes are reached through a RemoteSubnetRoute, and none covers it`;
  return 'only the default route covers this pod address; the network plugin is not known, so whether the network beyond carries pod addresses or a route per node\'s pod subnet is missing cannot be said';
}
