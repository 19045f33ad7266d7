// buildNode: spec -> object model of one Windows k8s node (HNS + compartments + routes + VFP) and its
// ground truth. Every file is later rendered from these objects, so the truth never depends on text.

import { Rng, hash5 } from './prng.ts';
import { conjureMac, hostAt, intToIp, ipToInt } from './net.ts';
import { buildVfpPorts } from './vfpmodel.ts';
import { addressing, platformHostMac, podGateway as platformGateway, type Addressing } from './platforms.ts';
import { adjustPlatformVfp } from './platform-vfp.ts';
import { DEFAULT_SPEC, resolveSpec } from './build-spec.ts';
import { buildNetworks } from './build-networks.ts';
import { applyPodFaults } from './build-pod-faults.ts';
import { buildRoutes } from './build-routes.ts';
import { applyLoadBalancerFaults } from './build-lb-faults.ts';
import { assignPodNames, buildCluster } from './cluster.ts';
import {
  type EpPolicy,
  type Adapter,
  type Compartment,
  type Expected,
  type FaultName,
  type FaultRecord,
  type GeneratedNode,
  type HnsEndpoint,
  type HnsNamespace,
  type LoadBalancer,
  type GenService,
  type NodeSpec,
  type ClusterNodeContext,
} from './types.ts';

export { DEFAULT_SPEC };

export const SERVICE_PORTS: { port: number; target: number; proto: 6 | 17 }[] = [
  { port: 80, target: 80, proto: 6 },
  { port: 80, target: 8080, proto: 6 },
  { port: 443, target: 8443, proto: 6 },
  { port: 443, target: 443, proto: 6 },
  { port: 8080, target: 8080, proto: 6 },
  { port: 6379, target: 6379, proto: 6 },
  { port: 5432, target: 5432, proto: 6 },
  { port: 9090, target: 9090, proto: 6 },
  { port: 3000, target: 3000, proto: 6 },
  { port: 8125, target: 8125, proto: 17 },
  { port: 514, target: 5514, proto: 17 },
];

export const SERVICE_NAMES = ['web', 'api', 'frontend', 'backend', 'cache', 'db', 'metrics', 'auth', 'orders', 'cart', 'search', 'mail', 'queue', 'billing', 'iis', 'aspnet'];

/** Windows prints IPv6 groups without leading zeros. */
function linkLocal(r: Rng): string {
  return 'fe80::' + [0, 1, 2, 3].map(() => r.int(0, 0xffff).toString(16)).join(':');
}

export function isLegacyBuild(build: string): boolean {
  const n = Number(build.split('.')[2] ?? '0');
  return n < 20348;
}

/**
 * One node. With `cluster` (tools/gen/cluster-nodes.ts) the node belongs to a generated cluster: its
 * addressing, host MAC, DR MAC, peers, Services and kubectl pods come from the cluster, so what it says
 * about its peers matches what they say about themselves (unless a cluster fault says otherwise).
 * Without it every draw and every byte is what it always was.
 */
export function buildNode(input: NodeSpec, cluster?: ClusterNodeContext): GeneratedNode {
  const { prof, spec } = resolveSpec(input, cluster);
  const faults = new Set(spec.faults as FaultName[]);
  const faultRecords: FaultRecord[] = [];

  const root = new Rng(spec.seed);
  const rIds = root.fork('ids');
  const rNet = root.fork('net');
  const rSvc = root.fork('svc');
  // Faults draw from their own stream so a faulty bundle differs from the healthy one only where intended.
  const rFault = root.fork('faults');
  const legacyBuild = isLegacyBuild(spec.windowsBuild);
  const isL2 = spec.network === 'l2bridge';

  const collectedAt = new Date(Date.UTC(2024, 4, 14, 9, 12, 3) + (spec.seed % 997) * 3_600_000 + (spec.seed % 59) * 60_000);
  const hostIdx = rNet.int(4, 40);
  const drawnHostMac = platformHostMac(prof?.name, rNet.mac('00-0D-3A'));
  const hostMac = cluster?.hostMac ?? drawnHostMac;
  const subnetIdx = rNet.int(1, 60);
  const addr: Addressing | undefined = cluster ? cluster.addr : prof ? addressing(prof.name, hostIdx, subnetIdx, spec.pods) : undefined;
  const nodeIp = addr?.nodeIp ?? `10.240.0.${hostIdx}`;
  const nodeSubnet = addr?.nodeSubnet ?? '10.240.0.0/16';
  const nodeGateway = addr?.nodeGateway ?? '10.240.0.1';
  const clusterCidr = addr ? addr.clusterCidr : '10.244.0.0/16';
  const serviceCidr = addr ? addr.serviceCidr : '10.96.0.0/12';
  let podSubnet = addr?.podSubnet ?? `10.244.${subnetIdx}.0/24`;
  const dnsVip = addr ? addr.dnsVip : '10.96.0.10';
  const dnsSuffix = 'default.svc.cluster.local';
  const netName = prof ? prof.netName(addr!, hostMac) : isL2 ? 'cbr0' : 'vxlan0';
  const noRemote = prof?.name === 'nat';

  const drawnRemote = Array.from({ length: noRemote || cluster ? 0 : spec.remoteNodes }, (_, i) => ({
    name: `aks-nodepool1-${rNet.hex(8, false).slice(0, 8)}-vmss00000${i}`,
    ip: addr ? addr.remote(i).ip : `10.240.0.${hostIdx + 1 + i}`,
    podSubnet: addr ? addr.remote(i).podSubnet : `10.244.${(subnetIdx + 1 + i) % 256}.0/24`,
    drMac: rNet.mac('00-15-5D'),
    firstPod: addr ? addr.remote(i).firstPod : 3,
  }));
  const remoteNodes = cluster ? cluster.peers.map((p) => ({ ...p })) : drawnRemote;
  if (prof && !cluster) {
    // Node names as each platform's clusters spell them.
    const stem = prof.name === 'eks-vpc-bridge' ? '' : prof.name.startsWith('azure') ? 'akswinnp' : prof.name === 'ovn-kubernetes' ? 'winworker-' : 'win-node-';
    remoteNodes.forEach((n, i) => (n.name = prof.name === 'eks-vpc-bridge' ? `ip-${n.ip.replace(/\./g, '-')}.ec2.internal` : `${stem}${String(i + 1).padStart(prof.name.startsWith('azure') ? 6 : 1, '0')}`));
  }

  // --- networks -------------------------------------------------------------------------------
  const { natNet, natSubnet, k8sNet, networks } = buildNetworks({ prof, spec, cluster, rNet, rIds, addr, serviceCidr, clusterCidr, nodeSubnet, nodeGateway, nodeIp, podSubnet, netName, remoteNodes, isL2 });
  if (prof?.name === 'nat') podSubnet = natSubnet;

  // --- local endpoints ------------------------------------------------------------------------
  const baseExceptions = [clusterCidr, serviceCidr, nodeSubnet];
  const podPolicyFor = (ip: string): EpPolicy[] | undefined => {
    if (!prof) return undefined;
    const pol = prof.podPolicies(addr!, ip);
    const other = cluster?.exceptions;
    return other ? pol.map((x) => (x.type === 'OutBoundNAT' ? { ...x, exceptions: other(x.exceptions) } : x)) : pol;
  };
  // The seed's typo: the pod range's entry written with /0 (cluster CIDR, else the VNet/VPC CIDR, else the first).
  const typo = (list: string[]) => {
    const i = list.indexOf(clusterCidr) >= 0 ? list.indexOf(clusterCidr) : Math.max(0, list.indexOf(addr?.vnetCidr ?? ''));
    return list.map((e, k) => (k === i ? `${e.split('/')[0]}/0` : e));
  };
  const podExceptions = faults.has('exception-list-typo') ? (prof ? [] : baseExceptions.map((e) => (e === clusterCidr ? '10.244.0.0/0' : e))) : baseExceptions;
  const podGateway = prof ? platformGateway(prof, { ...addr!, podSubnet }) : isL2 ? hostAt(podSubnet, 2) : hostAt(podSubnet, 1);
  const podPrefix = Number(podSubnet.split('/')[1]);
  const endpoints: HnsEndpoint[] = [];
  const mkLocal = (kind: 'pod' | 'host' | 'sourcevip', name: string, ip: string, gateway: string, compartmentId: number | undefined, containerId?: string): HnsEndpoint => {
    const id = rIds.guid();
    return {
      id,
      name,
      kind,
      ip,
      mac: prof?.podMacPrefix && kind === 'pod' ? conjureMac(prof.podMacPrefix, ip) : rIds.mac('00-15-5D'),
      prefixLength: prof ? podPrefix : 24,
      gateway,
      networkId: k8sNet.id,
      networkName: k8sNet.name,
      portGuid: kind === 'sourcevip' ? undefined : spec.schema === 2 && !legacyBuild ? id : rIds.guid(),
      compartmentId,
      containerId,
      exceptionList: kind === 'pod' ? podExceptions : [],
      version: 38654705666 + rIds.int(0, 3),
      activityId: rIds.guid(),
    };
  };
  if (!prof && isL2) endpoints.push(mkLocal('host', `${netName}_ep`, hostAt(podSubnet, 2), hostAt(podSubnet, 1), 1));
  let bridgeEp: HnsEndpoint | undefined;
  if (prof?.bridgeEndpoint && !prof.bridgeEndpoint.remote) {
    bridgeEp = mkLocal('host', prof.bridgeEndpoint.name, hostAt(podSubnet, 2), hostAt(podSubnet, 1), 1);
    bridgeEp.policies = prof.network === 'overlay' ? [{ type: 'PA', pa: nodeIp }] : [{ type: 'L2Driver' }];
    endpoints.push(bridgeEp);
  }
  let sourceVipEp: HnsEndpoint | undefined;
  if (prof?.sourceVipEndpoint) {
    // kube-proxy's source VIP on overlay: a local endpoint with the host MAC and the node as PA, in no
    // compartment (kubernetes pkg/proxy/winkernel proxier.go syncProxyRules, "Source Vip endpoint").
    sourceVipEp = mkLocal('sourcevip', 'source-vip', hostAt(podSubnet, 2), '', undefined);
    sourceVipEp.mac = hostMac;
    sourceVipEp.policies = [{ type: 'PA', pa: nodeIp }];
    endpoints.push(sourceVipEp);
  }
  const pods: HnsEndpoint[] = [];
  const firstPod = addr?.firstPod ?? 3;
  const clusterPod = new Map((cluster?.pods ?? []).map((p) => [p.ip, p]));
  for (let i = 0; i < spec.pods; i++) {
    const drawnId = rIds.hex(64, false);
    const ip = hostAt(podSubnet, firstPod + i);
    // The cluster's snapshot already names this pod's sandbox; the endpoint carries the same ID.
    const containerId = clusterPod.get(ip)?.containerId || drawnId;
    const ep = mkLocal('pod', `${containerId}_${netName}`, ip, podGateway, 2 + i, containerId);
    if (prof) {
      ep.policies = podPolicyFor(ip);
      const nat = ep.policies!.find((x) => x.type === 'OutBoundNAT') as { type: 'OutBoundNAT'; exceptions: string[] } | undefined;
      if (nat && faults.has('exception-list-typo')) nat.exceptions = typo(nat.exceptions);
      ep.exceptionList = nat ? [...nat.exceptions] : [];
      ep.dns = prof.podDns(addr!, 'default');
    }
    pods.push(ep);
    endpoints.push(ep);
  }
  const podAt = (k: number) => pods[((k % pods.length) + pods.length) % pods.length];

  applyPodFaults({ faults, prof, pods, podAt, podPolicyFor, clusterCidr, podGateway, podSubnet, isL2, faultRecords });

  // --- services -> load balancers (+ remote endpoints they reference) --------------------------
  const remotePool: { ip: string; node: (typeof remoteNodes)[number] }[] = [];
  for (const n of remoteNodes) for (let j = 0; j < (prof ? Math.min(24, spec.pods) : 24); j++) remotePool.push({ ip: hostAt(n.podSubnet, n.firstPod + j), node: n });
  const remoteByIp = new Map<string, HnsEndpoint>();
  const remoteEndpoint = (ip: string, pa: string): HnsEndpoint => {
    let ep = remoteByIp.get(ip);
    if (!ep) {
      ep = {
        id: rIds.guid(),
        // kube-proxy's remote endpoints are named "Ethernet" in every real dump (platforms.md §4.4).
        name: prof ? 'Ethernet' : `remote_${ip}`,
        kind: 'remote',
        ip,
        mac: conjureMac('02-11', ip),
        prefixLength: prof ? podPrefix : 24,
        gateway: '',
        networkId: k8sNet.id,
        networkName: netName,
        pa: prof ? (prof.remoteEndpoints === 'pa' ? pa : undefined) : isL2 ? undefined : pa,
        exceptionList: [],
        version: 38654705666,
        activityId: rIds.guid(),
      };
      remoteByIp.set(ip, ep);
    }
    return ep;
  };
  let calicoEp: HnsEndpoint | undefined;
  if (prof?.bridgeEndpoint?.remote) {
    // Calico VXLAN's Calico_ep: a remote endpoint at .2 with the management IP as PA (dataplane_windows.go:509-555).
    calicoEp = { ...remoteEndpoint(hostAt(podSubnet, 2), nodeIp), name: prof.bridgeEndpoint.name, mac: conjureMac('0E-2A', nodeIp) };
    remoteByIp.delete(calicoEp.ip);
  }
  const sourceVip = prof ? (sourceVipEp?.ip ?? calicoEp?.ip ?? (prof.name === 'ovn-kubernetes' ? bridgeEp?.ip : undefined) ?? '') : isL2 ? nodeIp : hostAt(podSubnet, 254);
  if (!prof && !isL2) remoteEndpoint(sourceVip, nodeIp).mac = hostMac;

  type Backend = { id: string; ip: string };
  const localBackends: Backend[] = pods.map((p) => ({ id: p.id, ip: p.ip }));
  const pickBackends = (k: number): Backend[] => {
    const out: Backend[] = [];
    const seen = new Set<string>();
    for (let t = 0; out.length < k && t < k * 4; t++) {
      const local = remotePool.length === 0 || rSvc.chance(0.5);
      let b: Backend;
      if (local) b = rSvc.pick(localBackends);
      else {
        const r = rSvc.pick(remotePool);
        const ep = remoteEndpoint(r.ip, r.node.ip);
        b = { id: ep.id, ip: ep.ip };
      }
      if (!seen.has(b.id)) {
        seen.add(b.id);
        out.push(b);
      }
    }
    return out;
  };

  const svcBase = serviceCidr ? ipToInt(serviceCidr.split('/')[0]) : ipToInt('10.96.0.0');
  const svcSize = serviceCidr ? 2 ** (32 - Number(serviceCidr.split('/')[1])) : 1 << 20;
  const apiVip = intToIp(svcBase + 1);
  const loadBalancers: LoadBalancer[] = [];
  const services: GenService[] = [];
  const usedVips = new Set<string>([dnsVip, apiVip]);
  const usedNodePorts = new Set<number>();
  const kubeProxy = prof ? prof.kubeProxy : true;
  const addLb = (svc: string, vip: string, proto: 6 | 17, ext: number, int: number, backends: Backend[], isNodePort: boolean) => {
    if (!kubeProxy) return;
    const id = rIds.guid();
    loadBalancers.push({
      id,
      serviceName: svc,
      vip,
      protocol: proto,
      externalPort: ext,
      internalPort: int,
      endpointIds: backends.map((b) => b.id),
      dips: backends.map((b) => b.ip),
      isNodePort,
      isIlb: !isNodePort,
      sourceVip,
      tag: hash5(id),
    });
  };
  const addService = (full: string, vip: string, backends: Backend[], type: GenService['type']): GenService => {
    const [namespace, name] = full.split('/');
    const svc: GenService = { namespace, name, vip, type, ports: [], backends: backends.map((b) => b.ip) };
    services.push(svc);
    return svc;
  };
  if (cluster) {
    // The cluster's Services, the same on every node: a backend on this node is its local endpoint, one on
    // a peer a remote endpoint whose provider address is the peer's address as this node believes it
    // (kube-proxy takes it from the network's RemoteSubnetRoute: winkernel findRemoteSubnetProviderAddress).
    const ownerOf = (ip: string) => {
      const x = ipToInt(ip);
      return remoteNodes.find((n) => {
        const base = ipToInt(n.podSubnet.split('/')[0]) + n.firstPod;
        return x >= base && x < base + spec.pods;
      });
    };
    for (const svc of cluster.services) {
      const backends: Backend[] = svc.backends.map((ip) => {
        const local = pods.find((p) => p.ip === ip);
        if (local) return { id: local.id, ip };
        const ep = remoteEndpoint(ip, ownerOf(ip)?.ip ?? ip);
        return { id: ep.id, ip };
      });
      const full = `${svc.namespace}/${svc.name}`;
      const mine = addService(full, svc.vip, backends, svc.type);
      const programmed = cluster.unprogrammed !== full;
      for (const p of svc.ports) {
        mine.ports.push({ ...p });
        if (!programmed) continue;
        addLb(full, svc.vip, p.protocol, p.port, p.targetPort, backends, false);
        if (p.nodePort) addLb(full, nodeIp, p.protocol, p.nodePort, p.targetPort, backends, true);
      }
    }
  } else if (prof?.name !== 'nat') {
    // kubernetes (API server behind <service CIDR>.1:443) and kube-dns (UDP+TCP 53) always exist.
    const apiIp = prof?.name.startsWith('azure') ? '10.224.255.250' : prof && (prof.name === 'eks-vpc-bridge' || prof.name === 'ovn-kubernetes') ? '10.0.255.5' : '10.240.255.5';
    const apiEp = remoteEndpoint(apiIp, apiIp);
    addLb('default/kubernetes', apiVip, 6, 443, 6443, [{ id: apiEp.id, ip: apiEp.ip }], false);
    addService('default/kubernetes', apiVip, [{ id: apiEp.id, ip: apiEp.ip }], 'ClusterIP').ports.push({ port: 443, targetPort: 6443, protocol: 6 });
    const dnsBackends: Backend[] =
      remotePool.length > 0
        ? remotePool.slice(0, 2).map((r) => {
            const ep = remoteEndpoint(r.ip, r.node.ip);
            return { id: ep.id, ip: ep.ip };
          })
        : localBackends.slice(0, 2);
    addLb('kube-system/kube-dns', dnsVip, 17, 53, 53, dnsBackends, false);
    addLb('kube-system/kube-dns', dnsVip, 6, 53, 53, dnsBackends, false);
    addService('kube-system/kube-dns', dnsVip, dnsBackends, 'ClusterIP').ports.push({ port: 53, targetPort: 53, protocol: 17 }, { port: 53, targetPort: 53, protocol: 6 });
    for (let s = 2; s < spec.services; s++) {
      let vip: string;
      do vip = intToIp(svcBase + rSvc.int(12, svcSize - 2));
      while (usedVips.has(vip));
      usedVips.add(vip);
      const name = `default/${rSvc.pick(SERVICE_NAMES)}-${s}`;
      const roll = rSvc.float();
      const nPorts = roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
      const ports = rSvc.sample(SERVICE_PORTS, nPorts).filter((p, i, all) => all.findIndex((q) => q.port === p.port && q.proto === p.proto) === i);
      const backends = pickBackends(rSvc.int(1, 3));
      const nodePort = rSvc.chance(0.15);
      const svc = addService(name, vip, backends, nodePort ? 'NodePort' : 'ClusterIP');
      for (const p of ports) {
        addLb(name, vip, p.proto, p.port, p.target, backends, false);
        const sp: GenService['ports'][number] = { port: p.port, targetPort: p.target, protocol: p.proto };
        svc.ports.push(sp);
        if (nodePort) {
          let np: number;
          do np = rSvc.int(30000, 32767);
          while (usedNodePorts.has(np));
          usedNodePorts.add(np);
          sp.nodePort = np;
          addLb(name, nodeIp, p.proto, np, p.target, backends, true);
        }
      }
    }
  }
  applyLoadBalancerFaults({ faults, prof, spec, kubeProxy, loadBalancers, services, pods, remoteNodes, podSubnet, firstPod, nodeIp, rFault, remoteEndpoint, faultRecords });
  if (kubeProxy) endpoints.push(...remoteByIp.values());
  if (calicoEp) endpoints.push(calicoEp);
  // Kubernetes names of the local pods (by the Services they back), needed for Antrea's endpoint names.
  if (cluster) {
    for (const p of pods) {
      const k = cluster.pods.find((x) => x.ip === p.ip);
      if (k) p.pod = { namespace: k.namespace, name: k.name, uid: k.uid };
    }
  } else if (prof) assignPodNames(pods, services, root.fork('pods'));

  // --- compartments, namespaces, adapters -----------------------------------------------------
  let ifIndex = 4;
  const nextIf = () => (ifIndex += rNet.int(1, 3));
  const hostCompartment: Compartment = { id: 1, guid: '{b1062982-2b18-4b4f-b3d5-a78ddb9cdd49}', adapters: [] };
  const hostVnic: Adapter = {
    name: prof?.hostVnicName ?? 'vEthernet (Ethernet)',
    description: 'Hyper-V Virtual Ethernet Adapter',
    mac: hostMac,
    ifIndex: nextIf(),
    compartmentId: 1,
    ipv4: nodeIp,
    prefixLength: Number(nodeSubnet.split('/')[1]),
    gateway: nodeGateway,
    dnsServers: [prof?.name === 'eks-vpc-bridge' ? hostAt(addr!.vnetCidr!, 2) : '168.63.129.16'],
    dhcp: true,
    linkLocal: linkLocal(rNet),
    mtu: 1500,
    dnsSuffix: prof?.name === 'eks-vpc-bridge' ? 'ec2.internal' : 'reddog.microsoft.com',
  };
  const natVnic: Adapter = {
    name: 'vEthernet (nat)',
    description: 'Hyper-V Virtual Ethernet Adapter #2',
    mac: rNet.mac('00-15-5D'),
    ifIndex: nextIf(),
    compartmentId: 1,
    ipv4: natNet.gateway,
    prefixLength: 20,
    dnsServers: [],
    dhcp: false,
    linkLocal: linkLocal(rNet),
    mtu: 1500,
    dnsSuffix: '',
  };
  const hasNat = networks.includes(natNet);
  hostCompartment.adapters.push(hostVnic, ...(hasNat ? [natVnic] : []));
  let adapterNo = 3;
  const podMtu = spec.network === 'overlay' ? 1450 : 1500;
  const mkEpAdapter = (ep: HnsEndpoint, compartmentId: number): Adapter => ({
    name: `vEthernet (${ep.name})`,
    description: `Hyper-V Virtual Ethernet Adapter #${adapterNo++}`,
    mac: ep.mac,
    ifIndex: nextIf(),
    compartmentId,
    ipv4: ep.ip,
    prefixLength: prof ? podPrefix : 24,
    gateway: ep.kind === 'host' ? undefined : ep.gateway,
    dnsServers: ep.kind === 'host' ? [] : (ep.dns?.servers ?? [dnsVip]),
    dhcp: false,
    linkLocal: linkLocal(rNet),
    mtu: podMtu,
    dnsSuffix: ep.kind === 'host' || (prof && !ep.dns?.servers.length) ? '' : dnsSuffix,
    endpointId: ep.id,
  });
  const namespaces: HnsNamespace[] = [];
  const hostEp = endpoints.find((e) => e.kind === 'host');
  let hostEpAdapter: Adapter | undefined;
  if (hostEp) {
    hostEpAdapter = mkEpAdapter(hostEp, 1);
    hostEp.ifIndex = hostEpAdapter.ifIndex;
    hostCompartment.adapters.push(hostEpAdapter);
  }
  // Antrea: antrea-gw0, the OVS internal port holding the pods' gateway (.1) on the host (windows-design.md:75).
  let antreaGw: Adapter | undefined;
  if (prof?.routeVia === 'antrea-gw0') {
    antreaGw = { name: 'antrea-gw0', description: 'Hyper-V Virtual Ethernet Adapter #2', mac: rNet.mac('00-15-5D'), ifIndex: nextIf(), compartmentId: 1, ipv4: hostAt(podSubnet, 1), prefixLength: podPrefix, dnsServers: [], dhcp: false, linkLocal: linkLocal(rNet), mtu: 1450, dnsSuffix: '' };
    hostCompartment.adapters.push(antreaGw);
  }
  namespaces.push({ id: rIds.guid(), compartmentId: 1, compartmentGuid: hostCompartment.guid, type: 'HostDefault', endpointIds: hostEp ? [hostEp.id] : [] });
  const compartments: Compartment[] = [hostCompartment];
  const noVnic = faults.has('endpoint-without-vnic') ? podAt(-2) : undefined;
  for (const p of pods) {
    const guid = `{${rIds.guid().toLowerCase()}}`;
    const nsId = rIds.guid();
    p.namespaceId = nsId;
    namespaces.push({ id: nsId, compartmentId: p.compartmentId!, compartmentGuid: guid, type: 'Guest', endpointIds: [p.id] });
    // Names that depend on the HCN namespace (EKS cid-<namespace GUID>) are known only now.
    if (prof) p.name = prof.podEndpointName(p.containerId!, p.pod?.name ?? '', nsId, k8sNet.name);
    const a = mkEpAdapter(p, p.compartmentId!);
    if (p === noVnic) continue;
    p.ifIndex = a.ifIndex;
    compartments.push({ id: p.compartmentId!, guid, adapters: [a] });
  }
  if (noVnic) {
    faultRecords.push({ name: 'endpoint-without-vnic', detail: `endpoint ${noVnic.id} (${noVnic.ip}) has no vNIC in any compartment (compartment ${noVnic.compartmentId} missing from ip.txt)`, objects: [noVnic.id] });
  }

  // --- IPv4 routes (route print shows the default compartment only) ----------------------------
  const { routes, missingRoute } = buildRoutes({ prof, faults, isL2, nodeGateway, nodeSubnet, podSubnet, natSubnet, hasNat, hostVnic, natVnic, hostEpAdapter, antreaGw, hostCompartment, compartments, remoteNodes, faultRecords });

  // --- VFP ---------------------------------------------------------------------------------------
  const node: GeneratedNode = {
    spec,
    platform: prof?.name,
    nodeName: prof ? prof.nodeName(spec.hostName, addr!) : spec.hostName,
    services,
    pods: [],
    k8sNodes: [],
    logFaults: {},
    collectedAt,
    hostName: spec.hostName,
    nodeIp,
    nodeSubnet,
    nodeGateway,
    hostMac,
    clusterCidr,
    serviceCidr,
    podSubnet,
    dnsVip,
    dnsSuffix,
    remoteNodes,
    networks,
    endpoints,
    loadBalancers,
    namespaces,
    compartments,
    routes,
    vfpPorts: [],
    legacyBuild,
    expected: undefined as unknown as Expected,
  };
  const missingRemote = (prof ? prof.crossNode === 'remote-subnet-routes' : !isL2) ? missingRoute?.podSubnet : undefined;
  node.vfpPorts = prof?.name === 'nat' ? [] : buildVfpPorts(node, root.fork('vfp'), { missingRemote });
  if (prof) adjustPlatformVfp(node, prof, root.fork('platform-vfp'));
  if (prof) buildCluster(node, prof, root.fork('cluster'), faultRecords, cluster);
  if (faults.has('blocked-port')) {
    const p = podAt(0);
    const port = node.vfpPorts.find((vp) => vp.endpointId === p.id)!;
    port.blocked = true;
    faultRecords.push({ name: 'blocked-port', detail: `VFP port ${port.name} of endpoint ${p.id} (${p.ip}) is Blocked : TRUE`, objects: [port.name, p.id] });
  }
  node.expected = computeExpected(node, faultRecords);
  return node;
}

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
