// What a bundle's redaction must catch: every address, MAC, GUID and host name its model holds, so
// values glued into rule names are found too (see redact.ts).
import type { NodeModel } from '../../parsers/model/types.ts';
import type { RedactorSeed } from './redact.ts';

const IPV4 = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d])/g;
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const MAC = /(?<![0-9a-f])(?:[0-9a-f]{2}[-:]){5}[0-9a-f]{2}(?![0-9a-f])/gi;

export function redactorSeed(m: NodeModel): RedactorSeed {
  // The HNS documents, adapters, routes and ports are plain data: one pass over their JSON finds every value.
  const text = JSON.stringify([m.networks, m.endpoints, m.loadBalancers, m.namespaces, m.ip, m.routes, m.ports, m.k8s?.pods.map((p) => [p.ips, p.hostIp]), m.k8s?.services, m.k8s?.nodes.map((n) => n.addresses)]);
  const hostnames = new Set<string>();
  if (m.meta.hostName) hostnames.add(m.meta.hostName);
  for (const c of m.ip?.compartments ?? []) if (c.hostName) hostnames.add(c.hostName);
  for (const p of m.k8s?.pods ?? []) if (p.nodeName) hostnames.add(p.nodeName);
  // The cluster's other nodes, as `kubectl get nodes` names them: their names (AKS
  // `aks-nodepool1-…-vmss000001`, no dots) have no shape redaction could recognise (review of #28).
  for (const n of m.k8s?.nodes ?? []) {
    if (n.name) hostnames.add(n.name);
    for (const a of n.addresses) if (/host|dns/i.test(a.type)) hostnames.add(a.address);
  }
  return {
    ips: new Set(text.match(IPV4) ?? []),
    guids: new Set(text.match(GUID) ?? []),
    macs: new Set(text.match(MAC) ?? []),
    hostnames,
  };
}
