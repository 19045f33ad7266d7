// HNS endpoint (v1 document or v2 HostComputeEndpoint) → HnsEndpoint.

import type { SourceRef } from '../types.ts';
import type { HnsEndpoint, HnsOutboundNat, HnsPolicy, HnsPortMapping } from './types.ts';
import { allocatorByTag, allocators, asArr, asBool, asObj, asStr, bool, enumValue, field, flagBits, isObj, normGuid, normMac, num, str, strList, type Lossy } from './access.ts';
import { readPortMapping } from './port-mapping.ts';
import { policiesOfType, readPolicies } from './policies.ts';
import { detectSchema } from './schema.ts';

/** hcn EndpointFlags. */
export const ENDPOINT_FLAGS = { None: 0, RemoteEndpoint: 1, DisableInterComputeCommunication: 2, EnableMirroring: 4, EnableLowInterfaceMetric: 8, OverrideDNSServerOrder: 16, EnableDhcp: 32 } as const satisfies Record<string, number>;

export function normaliseEndpoint(o: Record<string, unknown>, src: SourceRef, lossy: Lossy): HnsEndpoint {
  const schema = detectSchema(o);
  const policies = readPolicies(o, lossy);
  const allocs = allocators(o, lossy);
  const ep: HnsEndpoint = {
    id: normGuid(str(o, 'ID', 'Id')) ?? '',
    name: str(o, 'Name') ?? '',
    dnsServers: [],
    isRemote: false,
    outboundNat: [],
    routes: [],
    policies,
    sharedContainers: [],
    schema,
    raw: o,
    src,
  };
  const netId = normGuid(str(o, 'VirtualNetwork', 'HostComputeNetwork', 'NetworkId'));
  if (netId) ep.networkId = netId;
  const netName = str(o, 'VirtualNetworkName', 'NetworkName');
  if (netName) ep.networkName = netName;
  const type = str(o, 'Type');
  if (type) ep.type = type.toLowerCase();

  // Addresses: v1 flat fields; v2 IpConfigurations (IPv4 and IPv6 entries in any order).
  const ip = str(o, 'IPAddress', 'IpAddress');
  if (ip) ep.ip = ip;
  const ip6 = str(o, 'IPv6Address', 'Ipv6Address');
  if (ip6) ep.ipv6 = ip6;
  const prefix = num(o, 'PrefixLength');
  if (prefix !== undefined) ep.prefixLength = prefix;
  for (const c0 of asArr(field(o, 'IpConfigurations'), lossy, 'IpConfigurations')) {
    const c = asObj(c0, lossy, 'IpConfigurations[]');
    const a = str(c, 'IpAddress', 'IPAddress');
    if (!a) continue;
    if (a.includes(':')) {
      ep.ipv6 ??= a;
    } else if (ep.ip === undefined) {
      ep.ip = a;
      const pl = num(c, 'PrefixLength');
      if (pl !== undefined) ep.prefixLength = pl;
    }
  }
  const mac = str(o, 'MacAddress', 'MACAddress');
  if (mac) ep.mac = normMac(mac);

  const gw = str(o, 'GatewayAddress');
  if (gw) ep.gateway = gw;
  for (const r0 of asArr(field(o, 'Routes'), lossy, 'Routes')) {
    const r = asObj(r0);
    const dest = str(r, 'DestinationPrefix');
    const nh = str(r, 'NextHop');
    if (nh && (dest === '0.0.0.0/0' || dest === undefined) && ep.gateway === undefined) ep.gateway = nh;
  }

  const dns = asObj(field(o, 'Dns'), lossy, 'Dns');
  ep.dnsServers = strList(field(o, 'DNSServerList') ?? field(dns, 'ServerList'), lossy, 'Dns.ServerList');
  const suffix = str(o, 'DNSSuffix') ?? str(dns, 'Domain') ?? strList(field(dns, 'Search'))[0];
  if (suffix) ep.dnsSuffix = suffix;

  const flags = flagBits(field(o, 'Flags'), ENDPOINT_FLAGS);
  ep.isRemote = bool(o, 'IsRemoteEndpoint') ?? (flags & ENDPOINT_FLAGS.RemoteEndpoint) !== 0;
  const localAlloc = allocs.find((a) => field(a.value, 'IsLocal') !== undefined);
  const isLocal = localAlloc ? asBool(field(localAlloc.value, 'IsLocal')) : undefined;
  if (isLocal !== undefined) ep.isLocal = isLocal;
  const state = enumValue(o, 'State');
  if (state !== undefined) ep.state = state;

  const pa =
    firstSetting(policiesOfType(policies, 'PA'), 'PA', 'ProviderAddress') ??
    firstSetting(policiesOfType(policies, 'ProviderAddress'), 'ProviderAddress', 'PA') ??
    str(allocatorByTag(allocs, 'VNET Policy'), 'PA');
  if (pa) ep.providerAddress = pa;

  const nsField = field(o, 'Namespace');
  const ns = asObj(nsField);
  const nsId = normGuid(str(o, 'HostComputeNamespace') ?? (ns ? str(ns, 'ID', 'Id') : asStr(nsField)));
  if (nsId) ep.namespaceId = nsId;
  const comp = num(o, 'CompartmentId', 'CompartmentID') ?? num(ns, 'CompartmentId', 'CompartmentID');
  if (comp !== undefined) ep.compartmentId = comp;

  const port =
    str(allocatorByTag(allocs, 'Endpoint Port'), 'EndpointPortGuid') ??
    firstSetting(policiesOfType(policies, 'PortName'), 'Name', 'PortName') ??
    str(asObj(field(o, 'Resources')), 'vPortName');
  if (port) ep.portName = normGuid(port);

  ep.outboundNat = outboundNats(policies, lossy);
  for (const p of policiesOfType(policies, 'ROUTE', 'SDNRoute')) {
    const dest = str(p.settings, 'DestinationPrefix');
    if (!dest) continue;
    const r: HnsEndpoint['routes'][number] = { destinationPrefix: dest };
    const nh = str(p.settings, 'NextHop');
    if (nh) r.nextHop = nh;
    const enc = bool(p.settings, 'NeedEncap');
    if (enc !== undefined) r.needEncap = enc;
    ep.routes.push(r);
  }
  const maps: HnsPortMapping[] = [];
  for (const p of policiesOfType(policies, 'NAT', 'PortMapping')) {
    const numbers = readPortMapping(p.settings, lossy, 'Policies[NAT]');
    if (!numbers) continue;
    const m: HnsPortMapping = { ...numbers };
    const vip = str(p.settings, 'VIP', 'VirtualIP');
    if (vip) m.vip = vip;
    const f = num(p.settings, 'Flags');
    if (f !== undefined) m.flags = f;
    maps.push(m);
  }
  if (maps.length > 0) ep.portMappings = maps;
  ep.sharedContainers = strList(field(o, 'SharedContainers'), lossy, 'SharedContainers');
  return ep;
}

function firstSetting(policies: HnsPolicy[], ...keys: string[]): string | undefined {
  for (const p of policies) {
    const v = str(p.settings, ...keys);
    if (v) return v;
  }
  return undefined;
}

/**
 * OutBoundNAT policies. Any policy carrying an ExceptionList counts too: a hand-written document
 * (the troubleshooting guide's) repeats `Type`, so JSON keeps the last one (`L2Driver`) and the NAT
 * policy would otherwise vanish. Exception entries may be prefixes or ROUTE-like objects.
 */
function outboundNats(policies: HnsPolicy[], lossy: Lossy): HnsOutboundNat[] {
  const out: HnsOutboundNat[] = [];
  for (const p of policies) {
    const isNat = p.type.toLowerCase() === 'outboundnat';
    const list = field(p.settings, 'ExceptionList', 'Exceptions');
    if (!isNat && list === undefined) continue;
    const exceptions: string[] = [];
    for (const e of asArr(list, lossy, 'Policies[].ExceptionList')) {
      if (isObj(e)) {
        const d = str(e, 'DestinationPrefix', 'Prefix');
        if (d) exceptions.push(d);
      } else {
        const s = asStr(e)?.trim();
        if (s) exceptions.push(...s.split(/[,\s]+/).filter((x) => x !== ''));
      }
    }
    const nat: HnsOutboundNat = { exceptions };
    const vip = str(p.settings, 'VIP', 'VirtualIP');
    if (vip) nat.vip = vip;
    const dests = strList(field(p.settings, 'Destinations'), lossy, 'Policies[].Destinations');
    if (dests.length > 0) nat.destinations = dests;
    out.push(nat);
  }
  return out;
}
