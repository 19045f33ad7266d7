// The VFP rules a DSR load balancer needs on this node, as Microsoft's network health script expects
// them (microsoft/SDN Kubernetes/windows/debug/networkmonitor/networkhealth.ps1, class
// DSRLoadBalancerPolicyVfpRules): for each DSR policy and each local backend, `NAT_…_<VIP>_<port>_<proto>`
// in the backend port's SLB_NAT_LAYER / SLB_GROUP_NAT_IPv4_IN (it turns the VIP the frame still carries
// into the pod's address) and `ALLOW_NAT_…_<VIP>_<port>_<proto>` in its SLB_GROUP_NAT_IPv4_OUT (the
// answer leaves from the VIP); with a local backend, `HairPin_…_<VIP>_<port>_<port>_<proto>` in the host
// vNIC's SLB_HAIRPIN_LAYER / SLB_GROUP_HAIRPIN_IPv4_IN. A NodePort's VIP is the node's management address.
//
// Not every node is programmed this way: an LB_DSR rule that itself rewrites the destination ("Modifying
// destination IP") delivers without the backend's NAT rule. So the NAT rules are expected only where the
// node shows it relies on them — an LB rule for the VIP keeps the VIP (DSR proper), or a backend of the
// load balancer has its NAT_ rule — and the hairpin rule only where the host vNIC has any
// HairPin_ rule. Elsewhere nothing is said (a missed finding costs less than a false one).
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { intToIp, type CheckContext } from './context.ts';
import { spend } from '../budget.ts';
import { withService } from '../k8s/index.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/index.ts';
import { ruleEffect, type VfpPortPolicy } from '../../parsers/vfp/index.ts';
import { walkContext } from '../walk/context.ts';
import { canonIp } from '../walk/ip.ts';

const NH = 'microsoft/SDN Kubernetes/windows/debug/networkmonitor/networkhealth.ps1 (DSRLoadBalancerPolicyVfpRules)';
/** Load balancers looked at, at most (each local backend's port is parsed in full). */
const MAX_LBS = 500;

/** Where a rule is expected: the port, layer and group, and the rule name's prefix and tail. */
export interface DsrExpectation {
  prefix: 'NAT_' | 'ALLOW_NAT_' | 'HairPin_';
  tail: string;
  layer: string;
  group: string;
}

/** The rule name as the script's pattern reads (`NAT_\w*_<VIP>_<port>_<proto>`), in words. */
export const expectedName = (e: DsrExpectation) => `${e.prefix}…${e.tail}`;

/** The expectations for one DSR policy's VIP, port and protocol (networkhealth.ps1's three patterns). */
export function dsrExpectations(vip: string, port: number, proto: number): { backendIn: DsrExpectation; backendOut: DsrExpectation; hairpin: DsrExpectation } {
  return {
    backendIn: { prefix: 'NAT_', tail: `_${vip}_${port}_${proto}`, layer: 'SLB_NAT_LAYER', group: 'SLB_GROUP_NAT_IPv4_IN' },
    backendOut: { prefix: 'ALLOW_NAT_', tail: `_${vip}_${port}_${proto}`, layer: 'SLB_NAT_LAYER', group: 'SLB_GROUP_NAT_IPv4_OUT' },
    hairpin: { prefix: 'HairPin_', tail: `_${vip}_${port}_${port}_${proto}`, layer: 'SLB_HAIRPIN_LAYER', group: 'SLB_GROUP_HAIRPIN_IPv4_IN' },
  };
}

const nameOf = (l: { friendlyName?: string; id: string }) => l.friendlyName ?? l.id;

/** A rule of this name shape in this layer and group (names compared as strings: no pattern is built from bundle data). */
export function hasRule(pol: VfpPortPolicy, e: DsrExpectation): boolean {
  for (const l of pol.layers) {
    if (nameOf(l) !== e.layer) continue;
    for (const g of l.groups) {
      if (nameOf(g) !== e.group) continue;
      spend(g.rules.length);
      if (g.rules.some((r) => r.name.startsWith(e.prefix) && r.name.endsWith(e.tail))) return true;
    }
  }
  return false;
}

function anyRuleStarting(pol: VfpPortPolicy, prefix: string): boolean {
  return pol.layers.some((l) => l.groups.some((g) => g.rules.some((r) => r.name.startsWith(prefix))));
}

interface Service {
  lb: HnsLoadBalancer;
  vip: string;
  port: number;
  proto: number;
  backends: { ep: HnsEndpoint; port: VfpPortRef; pol: VfpPortPolicy }[];
}

/** Whether some pod port's load-balancing rule for this VIP keeps the VIP (DSR proper: the backend must NAT it). */
function keepsVip(ctx: CheckContext, vip: string, port: number): boolean {
  for (const e of ctx.localPods.slice(0, 20)) {
    const p = ctx.portOf(e);
    if (!p?.policy) continue;
    for (const r of ctx.rules(p)) {
      if (!r.dipRanges.length) continue;
      const dst = r.conditions.some((c) => c.kind === 'dstIp' && (c.ipRanges ?? []).some((x) => x.lo === x.hi && intToIp(x.lo) === vip));
      const onPort = r.conditions.some((c) => c.kind === 'dstPort' && (c.ports ?? []).some((x) => x.lo <= port && port <= x.hi));
      if (!dst || !onPort) continue;
      const eff = ruleEffect(r);
      if (!eff.rewrites.dstIp && (eff.macFixup || eff.flowPair || eff.unread.length > 0)) return true;
    }
  }
  return false;
}

export const dsrRulesCheck: Check = {
  id: 'dsr-rules',
  ids: ['dsr-backend-rule-missing', 'dsr-hairpin-rule-missing'],
  title: 'DSR load balancers: the NAT rules of local backends and the host hairpin rule',
  platforms: 'any',
  assumes: 'HNS programs a DSR load balancer as networkhealth.ps1 expects (NAT_/ALLOW_NAT_ on local backends, HairPin_ on the host vNIC) on nodes that show they rely on those rules',
  run(ctx: CheckContext): Finding[] {
    const m = ctx.m;
    if (!m.vfp || !m.loadBalancers?.length) return [];
    const wc = walkContext(m);
    const services: Service[] = [];
    for (const lb of m.loadBalancers.slice(0, MAX_LBS)) {
      if (!lb.dsr) continue;
      const backends: Service['backends'] = [];
      for (const id of lb.endpointIds) {
        const ep = wc.endpointsById.get(id.toLowerCase());
        if (!ep || ep.isRemote || !ep.ip) continue;
        const port = ctx.portOf(ep);
        const pol = port ? ctx.policy(port) : undefined;
        if (port && pol) backends.push({ ep, port, pol });
      }
      if (!backends.length) continue;
      // A NodePort's rules are named after the node's management address (networkhealth.ps1).
      const vip = lb.vips.find((v) => canonIp(v) && !v.includes(':')) ?? (lb.vips.length === 0 ? ctx.nodeIp : undefined);
      if (!vip) continue;
      for (const p of lb.ports) if (p.protocol === 6 || p.protocol === 17) services.push({ lb, vip, port: p.externalPort, proto: p.protocol, backends });
    }
    if (!services.length) return [];
    const hostPol = wc.hostPort ? ctx.policy(wc.hostPort) : undefined;
    const programsHairpin = !!hostPol && anyRuleStarting(hostPol, 'HairPin_');
    const out: Finding[] = [];
    for (const s of services) {
      const x = dsrExpectations(s.vip, s.port, s.proto);
      const what = `${withService(m, s.vip)}:${s.port}/${s.proto === 6 ? 'TCP' : 'UDP'}`;
      // The backends' NAT rules are expected where this load balancer relies on them: its LB rule keeps the
      // VIP, or one of its backends has its NAT_ rule (then the ALLOW_NAT_ and the other backends' are due too).
      if (keepsVip(ctx, s.vip, s.port) || s.backends.some((b) => hasRule(b.pol, x.backendIn))) {
        for (const b of s.backends) {
          const missing = [x.backendIn, x.backendOut].filter((e) => !hasRule(b.pol, e));
          if (!missing.length) continue;
          const where = missing.map((e) => `${expectedName(e)} in ${e.layer} / ${e.group}`).join(' and ');
          out.push({
            id: 'dsr-backend-rule-missing',
            severity: 'error',
            area: 'lb',
            title: `DSR backend ${b.ep.ip} of ${what} lacks ${missing.map(expectedName).join(' and ')} on its VFP port`,
            explanation: `HNS load balancer ${s.lb.id} is DSR: the client's port sends the frame to backend ${b.ep.ip} still addressed to ${s.vip}, and the backend's port must translate it (${expectedName(x.backendIn)} in ${x.backendIn.layer} / ${x.backendIn.group}) and let the answer leave from the VIP (${expectedName(x.backendOut)} in ${x.backendOut.group}). Port ${b.port.name} has no ${where}: the backend's stack drops a packet addressed to an address it does not own, so the share of ${what} that goes to ${b.ep.ip} fails. Source: ${NH}.`,
            fix: `Restart HNS so it reprograms the policy (\`Restart-Service -f hns\`, as networkhealth.ps1 advises; it disrupts the node), or recreate the backend pod; check with \`vfpctrl /port ${b.port.name} /layer SLB_NAT_LAYER /list-rule\`.`,
            objects: [`${s.vip}:${s.port}/${s.proto === 6 ? 'TCP' : 'UDP'}`, b.ep.id, b.port.name, ...missing.map(expectedName)],
            evidence: [ctx.ev(s.lb.src), ctx.portEv(b.port, `no ${where}`)],
            trace: ctx.traceSource(ctx.localPods.filter((e) => e.id !== b.ep.id))?.ip ? { srcIp: ctx.traceSource(ctx.localPods.filter((e) => e.id !== b.ep.id))!.ip!, dstIp: s.vip, dstPort: s.port, proto: s.proto === 6 ? 'tcp' : 'udp' } : undefined,
          });
        }
      }
      if (programsHairpin && hostPol && wc.hostPort && !hasRule(hostPol, x.hairpin)) {
        out.push({
          id: 'dsr-hairpin-rule-missing',
          severity: 'warning',
          area: 'lb',
          title: `Host vNIC lacks ${expectedName(x.hairpin)} for DSR ${what}, which has a local backend`,
          explanation: `HNS load balancer ${s.lb.id} is DSR with a backend on this node (${s.backends.map((b) => b.ep.ip).join(', ')}); networkhealth.ps1 expects ${expectedName(x.hairpin)} in the host vNIC's ${x.hairpin.layer} / ${x.hairpin.group}, and this host vNIC has HairPin_ rules for other load balancers but not this one. Source: ${NH}.`,
          fix: 'Restart HNS so it reprograms the policy (`Restart-Service -f hns`; it disrupts the node).',
          objects: [`${s.vip}:${s.port}/${s.proto === 6 ? 'TCP' : 'UDP'}`, wc.hostPort.name, expectedName(x.hairpin)],
          evidence: [ctx.ev(s.lb.src), ctx.portEv(wc.hostPort, `no ${expectedName(x.hairpin)} in ${x.hairpin.layer}`)],
        });
      }
    }
    return out;
  },
};
