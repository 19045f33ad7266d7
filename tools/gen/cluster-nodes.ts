// A generated cluster: N nodes of one platform that agree about each other, the way the plugins
// program them. Each node's peers are the other nodes with their real addresses, pod subnets and DR
// MACs (flannel vxlan_network_windows.go: RemoteSubnetRoute = the peer lease's PublicIP, VtepMAC (its
// HNS network's DrMacAddress, vxlan_windows.go) and subnet; Calico vxlan_mgr.go: the peer VTEP's
// ParentDeviceIp and Mac, which Calico's CNI sets from the HNS DR MAC, dataplane_windows.go
// GetDRMACAddr); every node programs the same Services (kube-proxy watches them all:
// kubernetes pkg/proxy/winkernel), remote backends with the provider address of their node
// (findRemoteSubnetProviderAddress); one kubectl snapshot names every pod and Node. The cluster faults
// make the last node the odd one out (CLUSTER_FAULTS in types.ts). Nodes are built one at a time
// (`plan` then `buildNode(spec, ctx)`), so a 500-node cluster is written without holding it.
import { Rng } from './prng.ts';
import { hostAt, intToIp, ipToInt } from './net.ts';
import { PROFILES, platformHostMac, platformHostName, type Addressing, type PlatformProfile } from './platforms.ts';
import { SERVICE_NAMES, SERVICE_PORTS, buildNode } from './build.ts';
import { podNameFor } from './cluster.ts';
import { clusterAddressing, clusterCapacity } from './cluster-addressing.ts';
import { CLUSTER_FAULTS, type ClusterFaultName, type ClusterNodeContext, type ClusterPeer, type GenK8sNode, type GenPod, type GenService, type GeneratedNode, type NodeSpec, type PlatformName, type VfpGeneration } from './types.ts';

export interface ClusterSpec {
  nodes: number;
  platform: PlatformName;
  seed: number;
  pods: number;
  services: number;
  schema: 1 | 2;
  vfpGeneration: VfpGeneration;
  windowsBuild: string;
  faults: ClusterFaultName[];
}

export const DEFAULT_CLUSTER: ClusterSpec = { nodes: 3, platform: 'flannel-vxlan', seed: 1, pods: 4, services: 6, schema: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', faults: [] };

/** Above this many nodes each node's snapshot holds its own pods and the Services' backends, not every pod. */
export const FULL_SNAPSHOT_NODES = 64;

/** The build the odd node runs with `other-build`. */
export const OTHER_BUILD = '10.0.17763.5830';

export interface ClusterNodePlan {
  host: string;
  nodeName: string;
  nodeIp: string;
  podSubnet: string;
  drMac?: string;
  hostMac: string;
  podIps: string[];
  spec: NodeSpec;
  ctx: ClusterNodeContext;
}

export interface ClusterExpected {
  platform: PlatformName;
  nodes: { host: string; nodeName: string; nodeIp: string; podSubnet: string; drMac?: string; pods: string[] }[];
  services: { name: string; vip: string; backends: string[] }[];
  /** The odd node and what is odd about it. */
  faults: { name: ClusterFaultName; node: string; detail: string; objects: string[] }[];
}

export interface ClusterPlan {
  spec: ClusterSpec;
  nodes: ClusterNodePlan[];
  expected: ClusterExpected;
}

const STALE_OK: PlatformName[] = ['flannel-host-gw', 'flannel-vxlan', 'calico-vxlan', 'calico-bgp', 'ovn-kubernetes'];

const hostName = platformHostName;

/** Every node's addressing, peers, Services and pods: what buildNode needs, for each node in turn. */
/** The spec checked against the platform and the cluster faults; its profile. */
function checkClusterSpec(spec: ClusterSpec): PlatformProfile {
  const prof = PROFILES[spec.platform];
  if (!prof) throw new Error(`unknown platform '${spec.platform}'`);
  if (spec.platform === 'nat') throw new Error('nat nodes have no cluster network: no cluster of them can be generated');
  if (!Number.isInteger(spec.nodes) || spec.nodes < 1) throw new Error('a cluster needs at least 1 node');
  const cap = clusterCapacity(spec.platform, spec.pods);
  if (spec.nodes > cap) throw new Error(`a ${spec.platform} cluster holds at most ${cap} nodes of ${spec.pods} pods here`);
  if (spec.pods < 1 || spec.pods > prof.maxPods) throw new Error(`pods must be between 1 and ${prof.maxPods} on ${spec.platform}`);
  for (const f of spec.faults) if (!(CLUSTER_FAULTS as readonly string[]).includes(f)) throw new Error(`unknown cluster fault '${f}' (known: ${CLUSTER_FAULTS.join(', ')})`);
  if (spec.faults.length && spec.nodes < 3) throw new Error('cluster faults need at least 3 nodes (the odd node stands against a majority)');
  if (spec.faults.includes('stale-pa') && !STALE_OK.includes(spec.platform)) throw new Error(`stale-pa: ${spec.platform} nodes reach each other's pods ${prof.crossNode === 'fabric' ? 'through the cloud fabric' : 'without a provider address per peer'}`);
  if (spec.faults.includes('missing-lb') && !prof.kubeProxy) throw new Error(`missing-lb: ${spec.platform} has no HNS load balancers`);
  if (spec.faults.includes('exception-list-differs') && ['antrea'].includes(spec.platform)) throw new Error('exception-list-differs: Antrea pods carry no OutBoundNAT ExceptionList');
  return prof;
}

type PlannedNode = { k: number; addr: Addressing; host: string; nodeName: string; podIps: string[]; hostMac: string; drMac: string };

/** The cluster's Services, the same on every node: kubernetes, kube-dns, then drawn ones backed by any node's pods. */
function clusterServiceList(spec: ClusterSpec, base: PlannedNode[], rSvc: Rng): GenService[] {
  const a0 = base[0].addr;
  const svcBase = ipToInt(a0.serviceCidr.split('/')[0]);
  const svcSize = 2 ** (32 - Number(a0.serviceCidr.split('/')[1]));
  const apiVip = intToIp(svcBase + 1);
  const apiIp = spec.platform.startsWith('azure') ? '10.224.255.250' : spec.platform === 'eks-vpc-bridge' || spec.platform === 'ovn-kubernetes' ? '10.0.255.5' : '10.240.255.5';
  const allPods = base.flatMap((b) => b.podIps);
  const services: GenService[] = [{ namespace: 'default', name: 'kubernetes', vip: apiVip, type: 'ClusterIP', ports: [{ port: 443, targetPort: 6443, protocol: 6 }], backends: [apiIp] }];
  const dnsBackends = [base[0].podIps[0], ...(base.length > 1 ? [base[1].podIps[0]] : spec.pods > 1 ? [base[0].podIps[1]] : [])];
  services.push({ namespace: 'kube-system', name: 'kube-dns', vip: a0.dnsVip, type: 'ClusterIP', ports: [{ port: 53, targetPort: 53, protocol: 17 }, { port: 53, targetPort: 53, protocol: 6 }], backends: dnsBackends });
  const usedVips = new Set([apiVip, a0.dnsVip]);
  const usedNodePorts = new Set<number>();
  for (let s = 2; s < spec.services; s++) {
    let vip: string;
    do vip = intToIp(svcBase + rSvc.int(12, svcSize - 2));
    while (usedVips.has(vip));
    usedVips.add(vip);
    const roll = rSvc.float();
    const ports = rSvc.sample(SERVICE_PORTS, roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3).filter((p, i, all) => all.findIndex((q) => q.port === p.port && q.proto === p.proto) === i);
    const backends = [...new Set(Array.from({ length: rSvc.int(1, 3) }, () => rSvc.pick(allPods)))];
    const nodePort = rSvc.chance(0.15);
    const svc: GenService = { namespace: 'default', name: `${rSvc.pick(SERVICE_NAMES)}-${s}`, vip, type: nodePort ? 'NodePort' : 'ClusterIP', ports: [], backends };
    for (const p of ports) {
      const sp: GenService['ports'][number] = { port: p.port, targetPort: p.target, protocol: p.proto };
      if (nodePort) {
        let np: number;
        do np = rSvc.int(30000, 32767);
        while (usedNodePorts.has(np));
        usedNodePorts.add(np);
        sp.nodePort = np;
      }
      svc.ports.push(sp);
    }
    services.push(svc);
  }
  return services;
}

interface OddNode {
  faults: ClusterExpected['faults'];
  staleIp: string | undefined;
  staleMac: string | undefined;
  userSvc: GenService | undefined;
  otherExceptions: (list: string[]) => string[];
}

/** What the cluster faults make the last node believe or lack, and the faults as expected. */
function oddNode(spec: ClusterSpec, prof: PlatformProfile, base: PlannedNode[], services: GenService[], rNodes: Rng): OddNode {
  const odd = spec.nodes - 1;
  const overlay = prof.network === 'overlay';
  const faults: ClusterExpected['faults'] = [];
  const staleIp = spec.faults.includes('stale-pa') ? staleAddress(base.map((b) => b.addr.nodeIp), base[0].addr.nodeSubnet) : undefined;
  const staleMac = staleIp ? rNodes.mac('00-15-5D') : undefined;
  if (staleIp) {
    const b0 = base[0];
    faults.push({
      name: 'stale-pa',
      node: base[odd].host,
      detail: overlay
        ? `${base[odd].host} tunnels ${b0.addr.podSubnet} (${b0.host}'s pods) to provider address ${staleIp} and DR MAC ${staleMac}; ${b0.host} is at ${b0.addr.nodeIp}${overlay ? ` with DR MAC ${b0.drMac}` : ''}`
        : `${base[odd].host} routes ${b0.addr.podSubnet} (${b0.host}'s pods) via ${staleIp}; ${b0.host} is at ${b0.addr.nodeIp}`,
      objects: [b0.addr.podSubnet, staleIp, b0.addr.nodeIp],
    });
  }
  const userSvc = services.find((s) => s.namespace === 'default' && s.name !== 'kubernetes');
  if (spec.faults.includes('missing-lb')) {
    if (!userSvc) throw new Error('missing-lb needs at least 3 services (one besides kubernetes and kube-dns)');
    faults.push({ name: 'missing-lb', node: base[odd].host, detail: `${base[odd].host} has no load balancer for default/${userSvc.name} (${userSvc.vip}); every other node has`, objects: [`default/${userSvc.name}`, userSvc.vip] });
  }
  const otherExceptions = (list: string[]) => (list.length >= 2 ? list.slice(0, -1) : [...list, '192.168.0.0/16']);
  if (spec.faults.includes('exception-list-differs')) {
    const normal = prof.podPolicies(base[odd].addr, base[odd].podIps[0]).flatMap((x) => (x.type === 'OutBoundNAT' ? x.exceptions : []));
    faults.push({ name: 'exception-list-differs', node: base[odd].host, detail: `${base[odd].host}'s pods exempt ${otherExceptions(normal).join(', ')} from OutBoundNAT; the other nodes' pods ${normal.join(', ')}`, objects: otherExceptions(normal) });
  }
  if (spec.faults.includes('other-build')) faults.push({ name: 'other-build', node: base[odd].host, detail: `${base[odd].host} runs ${OTHER_BUILD}; the other nodes ${spec.windowsBuild}`, objects: [OTHER_BUILD] });
  return { faults, staleIp, staleMac, userSvc, otherExceptions };
}

interface Shared {
  spec: ClusterSpec;
  prof: PlatformProfile;
  base: PlannedNode[];
  services: GenService[];
  pods: GenPod[];
  k8sNodes: GenK8sNode[];
  backendIps: Set<string>;
  o: OddNode;
}

function nodePlan(b: PlannedNode, x: Shared): ClusterNodePlan {
  const { spec, prof, base, services, pods, k8sNodes, backendIps } = x;
  const { staleIp, staleMac, userSvc, otherExceptions } = x.o;
  const odd = spec.nodes - 1;
  const overlay = prof.network === 'overlay';
  const isOdd = b.k === odd && spec.faults.length > 0;
  const peers: ClusterPeer[] = base
    .filter((x) => x.k !== b.k)
    .map((x) => ({ name: x.nodeName, ip: x.addr.nodeIp, podSubnet: x.addr.podSubnet, drMac: x.drMac, firstPod: x.addr.firstPod }));
  if (isOdd && staleIp) {
    const p0 = peers.find((p) => p.name === base[0].nodeName)!;
    p0.ip = staleIp;
    p0.drMac = staleMac!;
  }
  const snapshotPods = spec.nodes <= FULL_SNAPSHOT_NODES ? pods : pods.filter((p) => p.nodeName === b.nodeName || backendIps.has(p.ip));
  const ctx: ClusterNodeContext = {
    index: b.k,
    addr: b.addr,
    hostMac: b.hostMac,
    drMac: b.drMac,
    peers,
    services,
    unprogrammed: isOdd && spec.faults.includes('missing-lb') && userSvc ? `default/${userSvc.name}` : undefined,
    exceptions: isOdd && spec.faults.includes('exception-list-differs') ? otherExceptions : undefined,
    pods: snapshotPods,
    k8sNodes,
  };
  const nodeSpec: NodeSpec = {
    seed: spec.seed * 1000 + b.k + 1,
    hostName: b.host,
    network: prof.network,
    platform: spec.platform,
    schema: spec.schema,
    pods: spec.pods,
    services: spec.services,
    remoteNodes: peers.length,
    vfpGeneration: spec.vfpGeneration,
    windowsBuild: isOdd && spec.faults.includes('other-build') ? OTHER_BUILD : spec.windowsBuild,
    faults: [],
  };
  return { host: b.host, nodeName: b.nodeName, nodeIp: b.addr.nodeIp, podSubnet: b.addr.podSubnet, drMac: overlay ? b.drMac : undefined, hostMac: b.hostMac, podIps: b.podIps, spec: nodeSpec, ctx };
}

export function planCluster(input: Partial<ClusterSpec>): ClusterPlan {
  const spec: ClusterSpec = { ...DEFAULT_CLUSTER, ...input, faults: [...(input.faults ?? [])] };
  const prof = checkClusterSpec(spec);
  const root = new Rng(spec.seed);
  const rNodes = root.fork('cluster-nodes');
  const rSvc = root.fork('cluster-svc');
  const rPods = root.fork('cluster-pods');
  const base: PlannedNode[] = Array.from({ length: spec.nodes }, (_, k) => {
    const addr = clusterAddressing(spec.platform, k, spec.pods);
    const host = hostName(spec.platform, k);
    const nodeName = prof.nodeName(host, addr);
    const podIps = Array.from({ length: spec.pods }, (_, i) => hostAt(addr.podSubnet, addr.firstPod + i));
    return { k, addr, host, nodeName, podIps, hostMac: platformHostMac(spec.platform, rNodes.mac('00-0D-3A')), drMac: rNodes.mac('00-15-5D') };
  });
  const services = clusterServiceList(spec, base, rSvc);

  // The Pods and Nodes of the snapshot.
  const pods: GenPod[] = [];
  for (const b of base) {
    b.podIps.forEach((ip, i) => {
      const n = podNameFor(ip, services, rPods, i);
      pods.push({ namespace: n.namespace, name: n.name, uid: rPods.guid().toLowerCase(), ip, nodeName: b.nodeName, containerId: rPods.hex(64, false), labels: n.labels, phase: 'Running' });
    });
  }
  const k8sNodes: GenK8sNode[] = base.map((b) => ({ name: b.nodeName, ip: b.addr.nodeIp, podCidr: prof.podCidrOnNode ? b.addr.podSubnet : undefined, os: 'windows' }));
  const backendIps = new Set(services.flatMap((s) => s.backends));
  const o = oddNode(spec, prof, base, services, rNodes);
  const nodes = base.map((b) => nodePlan(b, { spec, prof, base, services, pods, k8sNodes, backendIps, o }));
  return {
    spec,
    nodes,
    expected: {
      platform: spec.platform,
      nodes: nodes.map((n) => ({ host: n.host, nodeName: n.nodeName, nodeIp: n.nodeIp, podSubnet: n.podSubnet, drMac: n.drMac, pods: n.podIps })),
      services: services.map((s) => ({ name: `${s.namespace}/${s.name}`, vip: s.vip, backends: s.backends })),
      faults: o.faults,
    },
  };
}

/** An address of the node subnet that no node has: where a recreated node used to be. */
function staleAddress(taken: string[], nodeSubnet: string): string {
  const [net, len] = nodeSubnet.split('/');
  const size = 2 ** (32 - Number(len));
  const used = new Set(taken);
  for (let off = size - 10; off > 1; off--) {
    const ip = intToIp((ipToInt(net) + off) >>> 0);
    if (!used.has(ip)) return ip;
  }
  throw new Error(`no free address in ${nodeSubnet} for a stale provider address`);
}

/** Builds one planned node (the cluster's nodes are built one at a time). */
export function buildClusterNode(n: ClusterNodePlan): GeneratedNode {
  return buildNode(n.spec, n.ctx);
}
