// buildNode: spec -> object model of one Windows k8s node (HNS + compartments + routes + VFP) and its
// ground truth. Every file is later rendered from these objects, so the truth never depends on text.

import { Rng, hash5 } from './prng.ts';
import { conjureMac, hostAt, intToIp, ipToInt, maskOf, parseCidr } from './net.ts';
import { buildVfpPorts } from './vfpmodel.ts';
import {
  FAULTS,
  type Adapter,
  type Compartment,
  type Expected,
  type FaultName,
  type FaultRecord,
  type GeneratedNode,
  type HnsEndpoint,
  type HnsNamespace,
  type HnsNetwork,
  type Ipv4Route,
  type LoadBalancer,
  type NodeSpec,
} from './types.ts';

export const DEFAULT_SPEC: Required<NodeSpec> = {
  seed: 1,
  hostName: 'akswin000000',
  network: 'l2bridge',
  schema: 2,
  pods: 8,
  services: 10,
  remoteNodes: 2,
  vfpGeneration: 'get-rule-counter',
  windowsBuild: '10.0.20348.2340',
  faults: [],
};

const SERVICE_PORTS: { port: number; target: number; proto: 6 | 17 }[] = [
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

const SERVICE_NAMES = ['web', 'api', 'frontend', 'backend', 'cache', 'db', 'metrics', 'auth', 'orders', 'cart', 'search', 'mail', 'queue', 'billing', 'iis', 'aspnet'];

/** Windows prints IPv6 groups without leading zeros. */
function linkLocal(r: Rng): string {
  return 'fe80::' + [0, 1, 2, 3].map(() => r.int(0, 0xffff).toString(16)).join(':');
}

export function isLegacyBuild(build: string): boolean {
  const n = Number(build.split('.')[2] ?? '0');
  return n < 20348;
}

export function buildNode(input: NodeSpec): GeneratedNode {
  const spec: Required<NodeSpec> = { ...DEFAULT_SPEC, ...input, faults: [...(input.faults ?? [])] };
  for (const f of spec.faults) {
    if (!(FAULTS as readonly string[]).includes(f)) throw new Error(`unknown fault '${f}' (known: ${FAULTS.join(', ')})`);
  }
  if (spec.pods < 1 || spec.pods > 250) throw new Error('pods must be between 1 and 250 (one /24 pod subnet per node: .3-.252)');
  if (spec.remoteNodes < 0 || spec.remoteNodes > 150) throw new Error('remoteNodes must be between 0 and 150');
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
  const nodeIp = `10.240.0.${hostIdx}`;
  const nodeSubnet = '10.240.0.0/16';
  const nodeGateway = '10.240.0.1';
  const hostMac = rNet.mac('00-0D-3A');
  const clusterCidr = '10.244.0.0/16';
  const serviceCidr = '10.96.0.0/12';
  const subnetIdx = rNet.int(1, 60);
  const podSubnet = `10.244.${subnetIdx}.0/24`;
  const dnsVip = '10.96.0.10';
  const dnsSuffix = 'default.svc.cluster.local';
  const netName = isL2 ? 'cbr0' : 'vxlan0';

  const remoteNodes = Array.from({ length: spec.remoteNodes }, (_, i) => ({
    name: `aks-nodepool1-${rNet.hex(8, false).slice(0, 8)}-vmss00000${i}`,
    ip: `10.240.0.${hostIdx + 1 + i}`,
    podSubnet: `10.244.${(subnetIdx + 1 + i) % 256}.0/24`,
    drMac: rNet.mac('00-15-5D'),
  }));

  // --- networks -------------------------------------------------------------------------------
  const natSubnet = `172.${rNet.int(17, 30)}.${rNet.pick([16, 32, 48, 64, 80])}.0/20`;
  const natNet: HnsNetwork = {
    id: rIds.guid(),
    name: 'nat',
    type: 'nat',
    subnet: natSubnet,
    gateway: hostAt(natSubnet, 1),
    switchId: rIds.guid(),
    remoteSubnetRoutes: [],
    macPool: { start: '00-15-5D-52-C0-00', end: '00-15-5D-52-CF-FF' },
  };
  const k8sNet: HnsNetwork = {
    id: rIds.guid(),
    name: netName,
    type: isL2 ? 'l2bridge' : 'overlay',
    subnet: podSubnet,
    gateway: hostAt(podSubnet, 1),
    managementIp: nodeIp,
    drMac: isL2 ? undefined : rNet.mac('00-15-5D'),
    networkAdapterName: 'Ethernet',
    hostVnicPortGuid: rIds.guid(),
    hostVnicFriendly: `Container NIC ${rIds.hex(8, false)}`,
    externalPortGuid: rIds.guid(),
    switchId: rIds.guid(),
    remoteSubnetRoutes: isL2 ? [] : remoteNodes.map((n) => ({ prefix: n.podSubnet, pa: n.ip, drMac: n.drMac })),
    macPool: { start: '00-15-5D-D5-10-00', end: '00-15-5D-D5-1F-FF' },
  };
  const networks = [natNet, k8sNet];

  // --- local endpoints ------------------------------------------------------------------------
  const baseExceptions = [clusterCidr, serviceCidr, nodeSubnet];
  const podExceptions = faults.has('exception-list-typo') ? baseExceptions.map((e) => (e === clusterCidr ? '10.244.0.0/0' : e)) : baseExceptions;
  const podGateway = isL2 ? hostAt(podSubnet, 2) : hostAt(podSubnet, 1);
  const endpoints: HnsEndpoint[] = [];
  const mkLocal = (kind: 'pod' | 'host', name: string, ip: string, gateway: string, compartmentId: number, containerId?: string): HnsEndpoint => {
    const id = rIds.guid();
    return {
      id,
      name,
      kind,
      ip,
      mac: rIds.mac('00-15-5D'),
      prefixLength: 24,
      gateway,
      networkId: k8sNet.id,
      networkName: netName,
      portGuid: spec.schema === 2 && !legacyBuild ? id : rIds.guid(),
      compartmentId,
      containerId,
      exceptionList: kind === 'pod' ? podExceptions : [],
      version: 38654705666 + rIds.int(0, 3),
      activityId: rIds.guid(),
    };
  };
  if (isL2) endpoints.push(mkLocal('host', `${netName}_ep`, hostAt(podSubnet, 2), hostAt(podSubnet, 1), 1));
  const pods: HnsEndpoint[] = [];
  for (let i = 0; i < spec.pods; i++) {
    const containerId = rIds.hex(64, false);
    const ep = mkLocal('pod', `${containerId}_${netName}`, hostAt(podSubnet, 3 + i), podGateway, 2 + i, containerId);
    pods.push(ep);
    endpoints.push(ep);
  }
  const podAt = (k: number) => pods[((k % pods.length) + pods.length) % pods.length];

  if (faults.has('exception-list-typo')) {
    faultRecords.push({ name: 'exception-list-typo', detail: `OutBoundNAT ExceptionList has 10.244.0.0/0 instead of ${clusterCidr}`, objects: pods.map((p) => p.id) });
  }
  if (faults.has('wrong-gateway')) {
    const p = podAt(1);
    p.gateway = isL2 ? hostAt(podSubnet, 1) : hostAt(podSubnet, 2);
    faultRecords.push({ name: 'wrong-gateway', detail: `pod ${p.ip} has gateway ${p.gateway}, expected ${podGateway}`, objects: [p.id] });
  }
  if (faults.has('duplicate-ip')) {
    if (pods.length < 2) throw new Error('duplicate-ip needs at least 2 pods');
    const p = podAt(-1);
    const orig = p.ip;
    p.ip = pods[0].ip;
    faultRecords.push({ name: 'duplicate-ip', detail: `pod endpoint ${p.id} has ${p.ip} (also ${pods[0].id}); its own address would have been ${orig}`, objects: [pods[0].id, p.id] });
  }

  // --- services -> load balancers (+ remote endpoints they reference) --------------------------
  const remotePool: { ip: string; node: (typeof remoteNodes)[number] }[] = [];
  for (const n of remoteNodes) for (let j = 0; j < 24; j++) remotePool.push({ ip: hostAt(n.podSubnet, 3 + j), node: n });
  const remoteByIp = new Map<string, HnsEndpoint>();
  const remoteEndpoint = (ip: string, pa: string): HnsEndpoint => {
    let ep = remoteByIp.get(ip);
    if (!ep) {
      ep = {
        id: rIds.guid(),
        name: `remote_${ip}`,
        kind: 'remote',
        ip,
        mac: conjureMac('02-11', ip),
        prefixLength: 24,
        gateway: '',
        networkId: k8sNet.id,
        networkName: netName,
        pa: isL2 ? undefined : pa,
        exceptionList: [],
        version: 38654705666,
        activityId: rIds.guid(),
      };
      remoteByIp.set(ip, ep);
    }
    return ep;
  };
  const sourceVip = isL2 ? nodeIp : hostAt(podSubnet, 254);
  if (!isL2) remoteEndpoint(sourceVip, nodeIp).mac = hostMac;

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

  const loadBalancers: LoadBalancer[] = [];
  const usedVips = new Set<string>([dnsVip, '10.96.0.1']);
  const usedNodePorts = new Set<number>();
  const addLb = (svc: string, vip: string, proto: 6 | 17, ext: number, int: number, backends: Backend[], isNodePort: boolean) => {
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
  // kubernetes (API server behind 10.96.0.1:443) and kube-dns (10.96.0.10 UDP+TCP 53) always exist.
  const apiEp = remoteEndpoint('10.240.255.5', '10.240.255.5');
  addLb('default/kubernetes', '10.96.0.1', 6, 443, 6443, [{ id: apiEp.id, ip: apiEp.ip }], false);
  const dnsBackends: Backend[] =
    remotePool.length > 0
      ? remotePool.slice(0, 2).map((r) => {
          const ep = remoteEndpoint(r.ip, r.node.ip);
          return { id: ep.id, ip: ep.ip };
        })
      : localBackends.slice(0, 2);
  addLb('kube-system/kube-dns', dnsVip, 17, 53, 53, dnsBackends, false);
  addLb('kube-system/kube-dns', dnsVip, 6, 53, 53, dnsBackends, false);
  for (let s = 2; s < spec.services; s++) {
    let vip: string;
    do vip = intToIp(ipToInt('10.96.0.0') + rSvc.int(12, (1 << 20) - 2));
    while (usedVips.has(vip));
    usedVips.add(vip);
    const name = `default/${rSvc.pick(SERVICE_NAMES)}-${s}`;
    const roll = rSvc.float();
    const nPorts = roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
    const ports = rSvc.sample(SERVICE_PORTS, nPorts).filter((p, i, all) => all.findIndex((q) => q.port === p.port && q.proto === p.proto) === i);
    const backends = pickBackends(rSvc.int(1, 3));
    const nodePort = rSvc.chance(0.15);
    for (const p of ports) {
      addLb(name, vip, p.proto, p.port, p.target, backends, false);
      if (nodePort) {
        let np: number;
        do np = rSvc.int(30000, 32767);
        while (usedNodePorts.has(np));
        usedNodePorts.add(np);
        addLb(name, nodeIp, p.proto, np, p.target, backends, true);
      }
    }
  }
  if (faults.has('stale-lb-dip')) {
    const lb = loadBalancers.find((l) => l.serviceName.startsWith('default/') && l.serviceName !== 'default/kubernetes') ?? loadBalancers[0];
    const staleId = rFault.guid();
    const staleIp = hostAt(podSubnet, 253);
    lb.endpointIds.push(staleId);
    lb.dips.push(staleIp);
    faultRecords.push({ name: 'stale-lb-dip', detail: `load balancer ${lb.id} (${lb.vip}:${lb.externalPort}) references endpoint ${staleId} (${staleIp}) which does not exist`, objects: [lb.id, staleId] });
  }
  endpoints.push(...remoteByIp.values());

  // --- compartments, namespaces, adapters -----------------------------------------------------
  let ifIndex = 4;
  const nextIf = () => (ifIndex += rNet.int(1, 3));
  const hostCompartment: Compartment = { id: 1, guid: '{b1062982-2b18-4b4f-b3d5-a78ddb9cdd49}', adapters: [] };
  const hostVnic: Adapter = {
    name: 'vEthernet (Ethernet)',
    description: 'Hyper-V Virtual Ethernet Adapter',
    mac: hostMac,
    ifIndex: nextIf(),
    compartmentId: 1,
    ipv4: nodeIp,
    prefixLength: 16,
    gateway: nodeGateway,
    dnsServers: ['168.63.129.16'],
    dhcp: true,
    linkLocal: linkLocal(rNet),
    mtu: 1500,
    dnsSuffix: 'reddog.microsoft.com',
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
  hostCompartment.adapters.push(hostVnic, natVnic);
  let adapterNo = 3;
  const podMtu = isL2 ? 1500 : 1450;
  const mkEpAdapter = (ep: HnsEndpoint, compartmentId: number): Adapter => ({
    name: `vEthernet (${ep.name})`,
    description: `Hyper-V Virtual Ethernet Adapter #${adapterNo++}`,
    mac: ep.mac,
    ifIndex: nextIf(),
    compartmentId,
    ipv4: ep.ip,
    prefixLength: 24,
    gateway: ep.kind === 'host' ? undefined : ep.gateway,
    dnsServers: ep.kind === 'host' ? [] : [dnsVip],
    dhcp: false,
    linkLocal: linkLocal(rNet),
    mtu: podMtu,
    dnsSuffix: ep.kind === 'host' ? '' : dnsSuffix,
    endpointId: ep.id,
  });
  const namespaces: HnsNamespace[] = [];
  const hostEp = endpoints.find((e) => e.kind === 'host');
  if (hostEp) {
    const a = mkEpAdapter(hostEp, 1);
    hostEp.ifIndex = a.ifIndex;
    hostCompartment.adapters.push(a);
  }
  namespaces.push({ id: rIds.guid(), compartmentId: 1, compartmentGuid: hostCompartment.guid, type: 'HostDefault', endpointIds: hostEp ? [hostEp.id] : [] });
  const compartments: Compartment[] = [hostCompartment];
  const noVnic = faults.has('endpoint-without-vnic') ? podAt(-2) : undefined;
  for (const p of pods) {
    const guid = `{${rIds.guid().toLowerCase()}}`;
    const nsId = rIds.guid();
    p.namespaceId = nsId;
    namespaces.push({ id: nsId, compartmentId: p.compartmentId!, compartmentGuid: guid, type: 'Guest', endpointIds: [p.id] });
    const a = mkEpAdapter(p, p.compartmentId!);
    if (p === noVnic) continue;
    p.ifIndex = a.ifIndex;
    compartments.push({ id: p.compartmentId!, guid, adapters: [a] });
  }
  if (noVnic) {
    faultRecords.push({ name: 'endpoint-without-vnic', detail: `endpoint ${noVnic.id} (${noVnic.ip}) has no vNIC in any compartment (compartment ${noVnic.compartmentId} missing from ip.txt)`, objects: [noVnic.id] });
  }

  // --- IPv4 routes (route print shows the default compartment only) ----------------------------
  const routes: Ipv4Route[] = [];
  const route = (cidr: string, gateway: string, iface: Adapter | { ipv4: string; ifIndex: number; compartmentId: number }, metric: number) => {
    const { network, prefixLen } = parseCidr(cidr);
    routes.push({ dest: network, mask: maskOf(prefixLen), prefixLen, gateway, iface: iface.ipv4!, ifIndex: iface.ifIndex, metric, compartmentId: iface.compartmentId });
  };
  const loop = { ipv4: '127.0.0.1', ifIndex: 1, compartmentId: 1 };
  const onLinkSet = (a: Adapter | typeof loop, cidr: string, metric: number) => {
    const { network, last } = parseCidr(cidr);
    route(`${network}/${parseCidr(cidr).prefixLen}`, 'On-link', a, metric);
    route(`${a.ipv4}/32`, 'On-link', a, metric);
    route(`${last}/32`, 'On-link', a, metric);
  };
  route('0.0.0.0/0', nodeGateway, hostVnic, 15);
  onLinkSet(loop, '127.0.0.0/8', 331);
  onLinkSet(hostVnic, nodeSubnet, 271);
  onLinkSet(natVnic, natSubnet, 5256);
  if (hostEp) onLinkSet(hostCompartment.adapters[2], podSubnet, 271);
  const missingRoute = faults.has('missing-remote-subnet-route') ? remoteNodes[0] : undefined;
  if (faults.has('missing-remote-subnet-route') && !missingRoute) throw new Error('missing-remote-subnet-route needs at least one remote node');
  if (isL2) for (const n of remoteNodes) if (n !== missingRoute) route(n.podSubnet, n.ip, hostVnic, 271);
  for (const a of [loop, ...hostCompartment.adapters]) route('224.0.0.0/4', 'On-link', a, a === loop ? 331 : a === natVnic ? 5256 : 271);
  for (const a of [loop, ...hostCompartment.adapters]) route('255.255.255.255/32', 'On-link', a, a === loop ? 331 : a === natVnic ? 5256 : 271);
  if (missingRoute) {
    faultRecords.push({
      name: 'missing-remote-subnet-route',
      detail: isL2 ? `no route for remote pod subnet ${missingRoute.podSubnet} via ${missingRoute.ip}` : `no REMOTESUBNETROUTE rule for remote pod subnet ${missingRoute.podSubnet} (PA ${missingRoute.ip})`,
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

  // --- VFP ---------------------------------------------------------------------------------------
  const node: GeneratedNode = {
    spec,
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
  node.vfpPorts = buildVfpPorts(node, root.fork('vfp'), { missingRemote: isL2 ? undefined : missingRoute?.podSubnet });
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
