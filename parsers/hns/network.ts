// HNS network (v1 document or v2 HostComputeNetwork) → HnsNetwork.

import type { SourceRef } from '../types.ts';
import type { HnsNetwork, HnsRemoteSubnetRoute, HnsRoute, HnsSubnet } from './types.ts';
import { allocatorByTag, allocators, asArr, asObj, field, enumValue, normGuid, normMac, num, str, strList, type Lossy } from './access.ts';
import { policiesOfType, readPolicies } from './policies.ts';
import { detectSchema } from './schema.ts';

export function normaliseNetwork(o: Record<string, unknown>, src: SourceRef, lossy: Lossy): HnsNetwork {
  const schema = detectSchema(o);
  const policies = readPolicies(o, lossy);
  const allocs = allocators(o, lossy);
  const net: HnsNetwork = {
    id: normGuid(str(o, 'ID', 'Id')) ?? '',
    name: str(o, 'Name') ?? '',
    type: (str(o, 'Type') ?? '').toLowerCase(),
    schema,
    subnets: [],
    remoteSubnetRoutes: [],
    dnsServers: [],
    policies,
    raw: o,
    src,
  };

  // v1: Subnets[{AddressPrefix, GatewayAddress, Policies[{Type: VSID, VSID}]}]
  for (const s0 of asArr(field(o, 'Subnets'), lossy, 'Subnets')) {
    const s = asObj(s0, lossy, 'Subnets[]');
    const prefix = str(s, 'AddressPrefix', 'IpAddressPrefix');
    if (!s || !prefix) continue;
    const sub: HnsSubnet = { prefix };
    const gw = str(s, 'GatewayAddress');
    if (gw) sub.gateway = gw;
    const vsid = vsidOf(s, lossy);
    if (vsid !== undefined) sub.vsid = vsid;
    net.subnets.push(sub);
  }
  // v2: Ipams[{Subnets[{IpAddressPrefix, Routes[{NextHop, DestinationPrefix}], Policies}]}]
  const routes: HnsRoute[] = [];
  for (const ipam of asArr(field(o, 'Ipams'), lossy, 'Ipams')) {
    for (const s0 of asArr(field(asObj(ipam), 'Subnets'), lossy, 'Ipams[].Subnets')) {
      const s = asObj(s0, lossy, 'Ipams[].Subnets[]');
      const prefix = str(s, 'IpAddressPrefix', 'AddressPrefix');
      if (!s || !prefix) continue;
      const sub: HnsSubnet = { prefix };
      for (const r0 of asArr(field(s, 'Routes'), lossy, 'Ipams[].Subnets[].Routes')) {
        const r = asObj(r0);
        const dest = str(r, 'DestinationPrefix');
        if (!dest) continue;
        const route: HnsRoute = { destinationPrefix: dest };
        const nh = str(r, 'NextHop');
        if (nh) route.nextHop = nh;
        const metric = num(r, 'Metric');
        if (metric !== undefined) route.metric = metric;
        routes.push(route);
        if (nh && (dest === '0.0.0.0/0' || dest === '::/0') && !sub.gateway) sub.gateway = nh;
      }
      const vsid = vsidOf(s, lossy);
      if (vsid !== undefined) sub.vsid = vsid;
      net.subnets.push(sub);
    }
  }
  if (routes.length > 0) net.hostRoutes = routes;

  const mgmt = str(o, 'ManagementIP', 'ManagementIp', 'ManagementIPv4');
  if (mgmt) net.managementIp = mgmt;
  const adapter = str(o, 'NetworkAdapterName') ?? settingOf(policies, 'NetAdapterName', 'NetworkAdapterName');
  if (adapter) net.networkAdapterName = adapter;
  const srcMac = str(o, 'SourceMac', 'SourceMacAddress') ?? settingOf(policies, 'SourceMacAddress', 'SourceMacAddress', 'Address', 'MacAddress');
  if (srcMac) net.sourceMac = normMac(srcMac);
  const dr = str(o, 'DrMacAddress', 'DistributedRouterMacAddress') ?? settingOf(policies, 'DrMacAddress', 'Address', 'DrMacAddress', 'MacAddress');
  if (dr) net.drMac = normMac(dr);
  const pa = str(o, 'ProviderAddress') ?? settingOf(policies, 'ProviderAddress', 'ProviderAddress', 'PA');
  if (pa) net.providerAddress = pa;

  for (const p of policiesOfType(policies, 'RemoteSubnetRoute')) {
    const dest = str(p.settings, 'DestinationPrefix');
    const prov = str(p.settings, 'ProviderAddress');
    if (!dest || !prov) continue;
    const r: HnsRemoteSubnetRoute = { destinationPrefix: dest, providerAddress: prov };
    const iso = num(p.settings, 'IsolationId', 'IsolationID', 'VSID');
    if (iso !== undefined) r.isolationId = iso;
    const drMac = str(p.settings, 'DistributedRouterMacAddress', 'DrMacAddress');
    if (drMac) r.drMac = normMac(drMac);
    net.remoteSubnetRoutes.push(r);
  }

  // v1 DNSServerList is a comma-separated string; v2 Dns.ServerList an array.
  const dns = asObj(field(o, 'Dns'), lossy, 'Dns');
  net.dnsServers = strList(field(o, 'DNSServerList') ?? field(dns, 'ServerList'), lossy, 'Dns.ServerList');
  const suffix = str(o, 'DNSSuffix', 'DNSDomain') ?? str(dns, 'Domain');
  if (suffix) net.dnsSuffix = suffix;

  const hostVnic = str(allocatorByTag(allocs, 'Host Vnic'), 'EndpointPortGuid');
  if (hostVnic) net.hostVnicPortGuid = normGuid(hostVnic);
  const ext = str(allocatorByTag(allocs, 'External Adapter Info'), 'ExternalNicPortGuid');
  if (ext) net.externalPortGuid = normGuid(ext);
  const state = enumValue(o, 'State');
  if (state !== undefined) net.state = state;
  return net;
}

function vsidOf(subnet: Record<string, unknown>, lossy: Lossy): number | undefined {
  for (const p of policiesOfType(readPolicies(subnet, lossy, 'Subnets[].Policies'), 'VSID')) {
    const v = num(p.settings, 'VSID', 'IsolationId');
    if (v !== undefined) return v;
  }
  return undefined;
}

/** First non-empty setting `keys` of the first policy of `type`. */
function settingOf(policies: ReturnType<typeof readPolicies>, type: string, ...keys: string[]): string | undefined {
  for (const p of policiesOfType(policies, type)) {
    const v = str(p.settings, ...keys);
    if (v) return v;
  }
  return undefined;
}
