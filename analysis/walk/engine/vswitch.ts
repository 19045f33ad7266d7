// Stage 2, the vSwitch: where the packet goes once it left its source port — back to the port a
// reply's flow names, to a local endpoint, to the host or a NodePort, or out by the route table.
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../../parsers/hns/index.ts';
import { lbKey } from '../context.ts';
import type { WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf } from '../ip.ts';
import { protoNumber } from '../match.ts';
import { k8sNames, serviceRanges } from '../../k8s/index.ts';
import { deliverTo } from './delivery.ts';
import { nodePort, vipKind, hnsLoadBalance } from './load-balance.ts';
import { undoHnsFlows } from './undo-flows.ts';
import { routeOut } from './routing.ts';
import { K8S_LIMITS, short, fmt, Walk, portByName, endpointOfPort } from './state.ts';
import { leaveEncapsulated } from './uplink.ts';
import { hostVipNote, hostVipReason, hostVipUnsupported } from '../host-vip-limit.ts';

export function forward(w: Walk, srcPort: VfpPortRef | undefined, opts: WalkOptions, depth: number): void {
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
    if (nodePort(w, opts, depth, forward)) return;
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
    const [range] = ranges;
    return void hnsLoadBalance(
      w,
      lb,
      `${kind === 'external' ? 'service address' : 'VIP'} ${fmt(p.dstIp, p.dstPort)}`,
      opts,
      depth,
      forward,
      kind === 'external'
        ? `${p.dstIp} is an external address of Service ${k8sNames(ctx.model).serviceLabel(dst)} (kubectl snapshot)`
        : range
          ? `${p.dstIp} is outside the cluster's Service range ${ranges.map((r) => r.cidr).join(', ')} (${range.file} line ${range.line}), so it is no ClusterIP: it is taken as a LoadBalancer or external IP (the bundle has no Service list that says which)`
          : `the bundle has no Service list that says whether ${p.dstIp} is a LoadBalancer or external IP (reachable from outside) or a ClusterIP (reachable only inside the cluster): it is taken as the former, since the packet came from outside`,
    );
  }
  if (lb || (ctx.vips.has(dst) && (srcPort || outside))) {
    const what = `${fmt(p.dstIp, p.dstPort)}/${p.proto.toUpperCase()}`;
    const icmp = p.proto === 'icmp';
    // The node itself on WS2019 or earlier: a documented limitation, not an inference (host-vip-limit.ts).
    const build = ctx.model.meta.windowsBuild;
    const hostLimit = !!lb && !icmp && !outside && w.sourceKind === 'host' && !w.reply && hostVipUnsupported(build);
    const i = w.add({
      at: 'vSwitch',
      kind: 'drop',
      action: 'no load-balancing rule',
      effect: { kind: 'drop', why: hostLimit ? 'limitation' : 'no-lb' },
      ...(hostLimit ? {} : { inferred: true }),
      evidence: lb?.src,
      note: hostLimit ? hostVipNote(what, build ?? '') : icmp
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
      hostLimit ? hostVipReason(what) : icmp
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
export function isHairpin(w: Walk, target: string): boolean {
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
export function hairpin(w: Walk, ep: HnsEndpoint, srcPort: VfpPortRef | undefined): void {
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
