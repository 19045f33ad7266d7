// Which HNS object a JSON document is, from its shape alone, so any file (network.txt, a saved
// `Get-HnsEndpoint | ConvertTo-Json`, Get-NetView's Get-HNSEndpoint-2.txt, hnsdiag -d) can be read
// without trusting its name. Checks run from the most to the least distinctive members.

import type { HnsKind } from './types.ts';
import { field, has, isObj, Lossy } from './access.ts';
import { readPolicies } from './policies.ts';

const NETWORK_TYPES = /^(l2bridge|l2tunnel|overlay|nat|transparent|ics|private|internal|mirrored|ipforwarding)$/i;

export function classifyHnsObject(obj: unknown): HnsKind {
  if (!isObj(obj)) return 'unknown';
  // Load balancers: v2 members, or a v1 policy list (ELB policies, References to endpoints).
  if (has(obj, 'FrontendVIPs', 'PortMappings', 'HostComputeEndpoints')) return 'loadbalancer';
  const policies = readPolicies(obj, new Lossy());
  const hasElb = policies.some((p) => p.type.toLowerCase() === 'elb');
  // A policy list whose policies are read and none is an ELB (a ROUTE policy list) balances nothing.
  if (policyListWithoutElb(obj)) return 'unknown';
  if (has(obj, 'References') || (hasElb && !has(obj, 'IPAddress', 'MacAddress', 'IpConfigurations'))) return 'loadbalancer';
  // Namespaces: compartment members, or a v2 Resources array of {Type, Data}.
  if (has(obj, 'NamespaceId', 'NamespaceGuid', 'ResourceList')) return 'namespace';
  const res = field(obj, 'Resources');
  if (Array.isArray(res) && res.some((r) => isObj(r) && has(r, 'Data'))) return 'namespace';
  if (has(obj, 'CompartmentGuid', 'CompartmentId') && !has(obj, 'IPAddress', 'MacAddress', 'IpConfigurations', 'Subnets', 'Ipams')) return 'namespace';
  // Endpoints.
  if (has(obj, 'IpConfigurations', 'IsRemoteEndpoint', 'SharedContainers', 'HostComputeNamespace', 'EncapOverhead', 'GatewayAddress', 'IPAddress', 'VirtualNetworkName', 'VirtualNetwork')) return 'endpoint';
  if (has(obj, 'MacAddress') && has(obj, 'HostComputeNetwork')) return 'endpoint';
  // Networks.
  if (has(obj, 'Subnets', 'Ipams', 'ManagementIP', 'NetworkAdapterName', 'MacPools', 'MacPool', 'DrMacAddress', 'LayeredOn', 'CurrentEndpointCount', 'TotalEndpoints', 'Extensions')) return 'network';
  const type = field(obj, 'Type');
  if (typeof type === 'string' && NETWORK_TYPES.test(type.trim()) && has(obj, 'ID', 'Id')) return 'network';
  return 'unknown';
}

/**
 * The policy types of a v1 policy list (`References` to endpoints) that holds no ELB policy, or
 * undefined when `obj` is not one (or its policies could not be read: a list view may not show them).
 */
export function policyListWithoutElb(obj: unknown): string[] | undefined {
  if (!isObj(obj) || !has(obj, 'References')) return undefined;
  const policies = readPolicies(obj, new Lossy());
  if (policies.length === 0 || policies.some((p) => p.type.toLowerCase() === 'elb')) return undefined;
  return [...new Set(policies.map((p) => p.type || '(no type)'))];
}
