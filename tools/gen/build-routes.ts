// The node's IPv4 routes as route print shows them (the default compartment; each pod compartment's
// own), the routes to the other nodes' pod subnets where the platform uses host routes, and the
// missing-remote-subnet-route fault. Split out of buildNode (build.ts); it draws nothing, so the
// bundles stay byte-identical (tools/gen-fingerprint.ts).
import { cidrBlock, hostAt, maskOf } from './net.ts';
import type { PlatformProfile } from './platforms.ts';
import type { Adapter, Compartment, FaultName, FaultRecord, Ipv4Route } from './types.ts';

export interface RouteInputs {
  prof: PlatformProfile | undefined;
  faults: Set<FaultName>;
  isL2: boolean;
  nodeGateway: string;
  nodeSubnet: string;
  podSubnet: string;
  natSubnet: string;
  hasNat: boolean;
  hostVnic: Adapter;
  natVnic: Adapter;
  hostEpAdapter: Adapter | undefined;
  antreaGw: Adapter | undefined;
  hostCompartment: Compartment;
  compartments: Compartment[];
  remoteNodes: { podSubnet: string; ip: string }[];
  faultRecords: FaultRecord[];
}

export function buildRoutes(x: RouteInputs): { routes: Ipv4Route[]; missingRoute: { podSubnet: string; ip: string } | undefined } {
  const { prof, faults, isL2, nodeGateway, nodeSubnet, podSubnet, natSubnet, hasNat, hostVnic, natVnic, hostEpAdapter, antreaGw, hostCompartment, compartments, remoteNodes, faultRecords } = x;
  const routes: Ipv4Route[] = [];
  const route = (cidr: string, gateway: string, iface: Adapter | { ipv4: string; ifIndex: number; compartmentId: number }, metric: number) => {
    const { network, prefixLen } = cidrBlock(cidr);
    routes.push({ dest: network, mask: maskOf(prefixLen), prefixLen, gateway, iface: iface.ipv4!, ifIndex: iface.ifIndex, metric, compartmentId: iface.compartmentId });
  };
  const loop = { ipv4: '127.0.0.1', ifIndex: 1, compartmentId: 1 };
  const onLinkSet = (a: Adapter | typeof loop, cidr: string, metric: number) => {
    const { network, last } = cidrBlock(cidr);
    route(`${network}/${cidrBlock(cidr).prefixLen}`, 'On-link', a, metric);
    route(`${a.ipv4}/32`, 'On-link', a, metric);
    route(`${last}/32`, 'On-link', a, metric);
  };
  route('0.0.0.0/0', nodeGateway, hostVnic, 15);
  onLinkSet(loop, '127.0.0.0/8', 331);
  onLinkSet(hostVnic, nodeSubnet, 271);
  if (hasNat) onLinkSet(natVnic, natSubnet, 5256);
  if (hostEpAdapter && podSubnet !== nodeSubnet) onLinkSet(hostEpAdapter, podSubnet, 271);
  if (antreaGw) onLinkSet(antreaGw, podSubnet, 271);
  const missingRoute = faults.has('missing-remote-subnet-route') ? remoteNodes[0] : undefined;
  if (faults.has('missing-remote-subnet-route') && !missingRoute) throw new Error('missing-remote-subnet-route needs at least one remote node');
  if (missingRoute && prof && prof.crossNode !== 'host-routes' && prof.crossNode !== 'remote-subnet-routes') throw new Error(`missing-remote-subnet-route: ${prof.name} nodes route pods through the cloud fabric`);
  const hostRoutes = prof ? prof.crossNode === 'host-routes' : isL2;
  if (hostRoutes) {
    for (const n of remoteNodes) {
      if (n === missingRoute) continue;
      // Antrea (encap): the peer pod CIDR via the peer's gateway on antrea-gw0 (route_windows.go:248-289).
      if (antreaGw) route(n.podSubnet, hostAt(n.podSubnet, 1), antreaGw, 271);
      else route(n.podSubnet, n.ip, hostVnic, 271);
    }
  }
  const mcast = (a: Adapter | typeof loop) => (a === loop ? 331 : a === natVnic ? 5256 : 271);
  for (const a of [loop, ...hostCompartment.adapters]) route('224.0.0.0/4', 'On-link', a, mcast(a));
  for (const a of [loop, ...hostCompartment.adapters]) route('255.255.255.255/32', 'On-link', a, mcast(a));
  if (missingRoute) {
    faultRecords.push({
      name: 'missing-remote-subnet-route',
      detail: hostRoutes ? `no route for remote pod subnet ${missingRoute.podSubnet} via ${missingRoute.ip}` : `no REMOTESUBNETROUTE rule for remote pod subnet ${missingRoute.podSubnet} (PA ${missingRoute.ip})`,
      objects: [missingRoute.podSubnet],
    });
  }
  for (const c of compartments) {
    if (c.id === 1) continue;
    const a = c.adapters[0];
    route('0.0.0.0/0', a.gateway!, a, 271);
    onLinkSet(a, podSubnet, 271);
    route('224.0.0.0/4', 'On-link', a, 271);
    route('255.255.255.255/32', 'On-link', a, 271);
  }
  return { routes, missingRoute };
}
