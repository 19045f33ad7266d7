// The ground truth of a generated node: what a correct reader of its files must find (counts, endpoints,
// load balancers, networks, compartments, VFP ports, remote subnets) and the faults injected. Computed
// from the objects the files are rendered from, never from the text.
import type { Expected, FaultRecord, GeneratedNode } from './types.ts';

export function computeExpected(node: GeneratedNode, faults: FaultRecord[]): Expected {
  const hostRoutes = node.routes.filter((r) => r.compartmentId === 1);
  const compartmentOf = new Map<string, number>();
  for (const c of node.compartments) for (const a of c.adapters) if (a.endpointId) compartmentOf.set(a.endpointId, c.id);
  let vfpLayers = 0;
  let vfpRules = 0;
  const vfpPorts = node.vfpPorts.map((p) => {
    const rules = p.layers.reduce((n, l) => n + l.groups.reduce((m, g) => m + g.rules.length, 0), 0);
    vfpLayers += p.layers.length;
    vfpRules += rules;
    return { name: p.name, friendlyName: p.friendlyName, kind: p.kind, endpointId: p.endpointId, layers: p.layers.length, rules, blocked: p.blocked };
  });
  const local = node.endpoints.filter((e) => e.kind !== 'remote');
  return {
    counts: {
      networks: node.networks.length,
      endpoints: node.endpoints.length,
      localEndpoints: local.length,
      remoteEndpoints: node.endpoints.length - local.length,
      loadBalancers: node.loadBalancers.length,
      compartments: node.compartments.length,
      adapters: node.compartments.reduce((n, c) => n + c.adapters.length, 0),
      vfpPorts: node.vfpPorts.length,
      vfpLayers,
      vfpRules,
      ipv4Routes: hostRoutes.length,
    },
    endpoints: node.endpoints.map((e) => ({
      id: e.id,
      ip: e.ip,
      mac: e.mac,
      portName: e.portGuid,
      isRemote: e.kind === 'remote',
      compartmentId: compartmentOf.get(e.id),
    })),
    loadBalancers: node.loadBalancers.map((l) => ({
      id: l.id,
      vips: [l.vip],
      ports: [{ protocol: l.protocol, externalPort: l.externalPort, internalPort: l.internalPort }],
      endpointIds: [...l.endpointIds],
    })),
    networks: node.networks.map((n) => ({ id: n.id, name: n.name, type: n.type, subnet: n.subnet, gateway: n.gateway })),
    compartments: node.compartments.map((c) => ({ id: c.id, adapters: c.adapters.map((a) => a.name) })),
    vfpPorts,
    remoteSubnets: node.remoteNodes.map((n) => ({ prefix: n.podSubnet, nodeIp: n.ip })),
    faults,
  };
}
