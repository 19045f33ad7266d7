// hnsdiag is the fallback source of HNS objects when the JSON files are missing (AKS bundles keep
// `hnsdiag list all` even when a colleague strips the rest). Its `-d` JSON gives full objects; its
// listings give IDs, names, IPs and VIPs only, which become objects with just those fields.
import type { Hnsdiag } from '../hnsdiag/index.ts';
import type { HnsEndpoint, HnsLoadBalancer, HnsNamespace, HnsNetwork } from '../hns/index.ts';

export interface HnsdiagObjects {
  networks: HnsNetwork[];
  endpoints: HnsEndpoint[];
  loadBalancers: HnsLoadBalancer[];
  namespaces: HnsNamespace[];
}

export function hnsdiagToObjects(d: Hnsdiag, _file: string): HnsdiagObjects {
  const out: HnsdiagObjects = { networks: [], endpoints: [], loadBalancers: [], namespaces: [] };
  for (const o of d.jsonObjects) {
    if (o.kind === 'network') out.networks.push(o.value);
    else if (o.kind === 'endpoint') out.endpoints.push(o.value);
    else if (o.kind === 'loadbalancer') out.loadBalancers.push(o.value);
    else if (o.kind === 'namespace') out.namespaces.push(o.value);
  }
  const seen = (list: { id: string }[]) => new Set(list.map((x) => x.id.toLowerCase()));
  const nets = seen(out.networks);
  for (const n of d.networks) {
    if (nets.has(n.id.toLowerCase())) continue;
    out.networks.push({ id: n.id.toLowerCase(), name: n.name, type: (n.type ?? '').toLowerCase(), schema: 2, subnets: [], remoteSubnetRoutes: [], dnsServers: [], policies: [], fromTable: true, raw: n, src: n.src });
  }
  const eps = seen(out.endpoints);
  for (const e of d.endpoints) {
    if (eps.has(e.id.toLowerCase())) continue;
    out.endpoints.push({
      id: e.id.toLowerCase(), name: e.name, networkName: e.networkName, ip: e.ip, dnsServers: [], isRemote: e.remoteInferred !== undefined, outboundNat: [], routes: [], policies: [], sharedContainers: [], schema: 2, fromTable: true, raw: e, src: e.src,
      ...(e.remoteInferred ? { remoteInferred: e.remoteInferred } : {}),
    });
  }
  const lbs = seen(out.loadBalancers);
  for (const l of d.loadBalancers) {
    if (lbs.has(l.id.toLowerCase())) continue;
    out.loadBalancers.push({ id: l.id.toLowerCase(), schema: 2, vips: l.vips, ports: [], dsr: false, ipv6: false, endpointIds: l.dipEndpointIds.map((x) => x.toLowerCase()), policies: [], raw: l, src: l.src });
  }
  const nss = seen(out.namespaces);
  for (const n of d.namespaces) {
    if (nss.has(n.id.toLowerCase())) continue;
    out.namespaces.push({ id: n.id.toLowerCase(), endpointIds: n.endpointIds.map((x) => x.toLowerCase()), containerIds: [], fromTable: true, raw: n, src: n.src });
  }
  return out;
}
