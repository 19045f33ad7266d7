// HNS load balancer → HnsLoadBalancer: a v1 policy list (`Get-HnsPolicyList`: ELB policies plus
// `References` to endpoints) or a v2 HostComputeLoadBalancer (FrontendVIPs, PortMappings,
// HostComputeEndpoints).
//
// A v1 policy list may carry several ELB policies (kube-proxy programs one per port, same VIPs).
// It stays ONE HnsLoadBalancer: `ports` gets one entry per ELB, `vips` is the union of their VIPs,
// `dsr` is true when any ELB is DSR. Readers needing the exact per-policy VIP keep `policies`.

import type { SourceRef } from '../types.ts';
import type { HnsLbPort, HnsLoadBalancer } from './types.ts';
import { asArr, asStr, bool, enumValue, field, flagBits, normGuid, str, strList, type Lossy } from './access.ts';
import { readPortMapping } from './port-mapping.ts';
import { policiesOfType, readPolicies } from './policies.ts';
import { detectSchema } from './schema.ts';

/** hcn LoadBalancerFlags. */
export const LB_FLAGS = { None: 0, DSR: 1, IPv6: 2 } as const satisfies Record<string, number>;
/** hcn LoadBalancerPortMappingFlags. */
export const LB_PORT_FLAGS = { None: 0, ILB: 1, EnableILB: 1, LocalRoutedVIP: 2, UseMux: 4, PreserveDIP: 8 } as const satisfies Record<string, number>;

export function normaliseLoadBalancer(o: Record<string, unknown>, src: SourceRef, lossy: Lossy): HnsLoadBalancer {
  const schema = detectSchema(o);
  const policies = readPolicies(o, lossy);
  const lb: HnsLoadBalancer = {
    id: normGuid(str(o, 'ID', 'Id')) ?? '',
    schema,
    vips: [],
    ports: [],
    dsr: false,
    ipv6: false,
    endpointIds: [],
    policies,
    raw: o,
    src,
  };
  const vips = new Set<string>();

  // v2
  for (const v of strList(field(o, 'FrontendVIPs'), lossy, 'FrontendVIPs')) vips.add(v);
  const lbFlags = flagBits(field(o, 'Flags'), LB_FLAGS);
  if (lbFlags & LB_FLAGS.DSR) lb.dsr = true;
  if (lbFlags & LB_FLAGS.IPv6) lb.ipv6 = true;
  for (const [i, m] of asArr(field(o, 'PortMappings'), lossy, 'PortMappings').entries()) {
    const f = flagBits(field(m, 'Flags'), LB_PORT_FLAGS);
    const numbers = readPortMapping(m, lossy, `PortMappings[${i}]`);
    if (!numbers) continue;
    const port: HnsLbPort = { ...numbers };
    if (f & LB_PORT_FLAGS.ILB) port.ilb = true;
    if (f & LB_PORT_FLAGS.LocalRoutedVIP) port.localRoutedVip = true;
    if (f & LB_PORT_FLAGS.UseMux) port.useMux = true;
    if (f & LB_PORT_FLAGS.PreserveDIP) port.preserveDip = true;
    const dist = enumValue(m, 'DistributionType');
    if (dist !== undefined) port.distributionType = dist;
    lb.ports.push(port);
  }
  for (const e of strList(field(o, 'HostComputeEndpoints'), lossy, 'HostComputeEndpoints')) {
    const id = normGuid(e);
    if (id) lb.endpointIds.push(id);
  }
  const srcVip = str(o, 'SourceVIP', 'SourceVip');
  if (srcVip) lb.sourceVip = srcVip;

  // v1
  for (const p of policiesOfType(policies, 'ELB')) {
    for (const v of strList(field(p.settings, 'VIPs', 'VIP'), lossy, 'Policies[].VIPs')) vips.add(v);
    const numbers = readPortMapping(p.settings, lossy, 'Policies[ELB]');
    if (!numbers) continue;
    const port: HnsLbPort = { ...numbers };
    if (bool(p.settings, 'ILB')) port.ilb = true;
    if (bool(p.settings, 'LocalRoutedVip', 'LocalRoutedVIP')) port.localRoutedVip = true;
    if (bool(p.settings, 'UseMux')) port.useMux = true;
    if (bool(p.settings, 'PreserveDip', 'PreserveDIP')) port.preserveDip = true;
    lb.ports.push(port);
    if (bool(p.settings, 'IsDSR', 'DSR')) lb.dsr = true;
    const sv = str(p.settings, 'SourceVIP', 'SourceVip');
    if (sv && !lb.sourceVip) lb.sourceVip = sv;
  }
  for (const r of asArr(field(o, 'References'), lossy, 'References')) {
    const s = asStr(r)?.trim();
    if (!s) continue;
    const m = /(?:^|\/)endpoints\/([^/\s]+)\s*$/i.exec(s);
    if (m) lb.endpointIds.push(normGuid(m[1])!);
    else if (!s.includes('/')) lb.endpointIds.push(normGuid(s)!);
  }

  lb.vips = [...vips];
  if (!lb.ipv6 && lb.vips.some((v) => v.includes(':'))) lb.ipv6 = true;
  const net = normGuid(str(o, 'HostComputeNetwork', 'VirtualNetwork', 'NetworkId'));
  if (net) lb.networkId = net;
  const state = enumValue(o, 'State');
  if (state !== undefined) lb.state = state;
  const applied = bool(o, 'IsApplied');
  if (applied !== undefined) lb.isApplied = applied;
  return lb;
}
