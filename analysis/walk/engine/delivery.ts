// Stage 5, delivery: the destination port's IN groups and whether a network stack is behind it.
import { dsrExpectations, expectedName } from '../../checks/dsr-rules.ts';
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../../parsers/hns/index.ts';
import { walkPort, type WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf } from '../ip.ts';
import { protoNumber } from '../match.ts';
import { short, Walk, portCtx } from './state.ts';

export function deliverTo(w: Walk, port: VfpPortRef | undefined, label: string, node: string | undefined, ep: HnsEndpoint | undefined, opts: WalkOptions): void {
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
        : "the node's IP configuration (ip.txt: ipconfig /allcompartments /all) is not in the bundle: whether this endpoint has its vNIC in a compartment (and so receives the packet) cannot be checked",
      nodes: node ? [node] : [],
    });
    if (known) w.end('dropped', `${label} has no vNIC in any compartment (endpoint ${short(ep.id)}): nothing receives the packet`, i);
    else w.end('unknown', `${label}: the node's IP configuration (ipconfig /allcompartments /all) is not in the bundle, so whether its vNIC exists to receive the packet cannot be told`, i);
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
  while (lastRule >= 0 && w.hops[lastRule]?.kind !== 'vfp') lastRule--;
  w.end('delivered', `delivered to ${label}`, lastRule >= 0 ? lastRule : i);
}

/** A remote endpoint has its vNIC on another node: only a local endpoint without an adapter misses one. */
export function vnicOptional(_w: Walk, ep: HnsEndpoint): boolean {
  return !!ep.isRemote;
}
