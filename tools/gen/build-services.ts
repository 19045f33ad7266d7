// The Services of a generated node and what kube-proxy made of them: the HNS load balancers (ClusterIP
// and NodePort), the remote endpoints their backends on other nodes need, and the Services as the
// kubectl snapshot lists them. Split out of buildNode (build.ts); the draws from `rSvc` and `rIds`
// happen in the same order as before, so every bundle is byte-identical (tools/gen-fingerprint.ts).
import { hash5 } from './prng.ts';
import { conjureMac, hostAt, intToIp, ipToInt } from './net.ts';
import type { NodeFrame, RemoteNode } from './build-frame.ts';
import type { LocalEndpoints } from './build-endpoints.ts';
import type { GenService, HnsEndpoint, HnsNetwork, LoadBalancer } from './types.ts';

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

type Backend = { id: string; ip: string };
export type RemoteEndpointOf = (ip: string, pa: string) => HnsEndpoint;

export interface ServicesBuilt {
  loadBalancers: LoadBalancer[];
  services: GenService[];
  kubeProxy: boolean;
  /** The remote endpoints made so far, by address (the load-balancer faults may add more). */
  remoteByIp: Map<string, HnsEndpoint>;
  remoteEndpoint: RemoteEndpointOf;
  /** Calico VXLAN's Calico_ep (a remote endpoint at .2), kept apart from the others. */
  calicoEp: HnsEndpoint | undefined;
}

/** The remote endpoint of an address, made once (kube-proxy names them "Ethernet" in every real dump, platforms.md §4.4). */
function remoteEndpoints(f: NodeFrame, k8sNet: HnsNetwork, podPrefix: number): { remoteByIp: Map<string, HnsEndpoint>; remoteEndpoint: RemoteEndpointOf } {
  const { prof, rIds, netName, isL2 } = f;
  const remoteByIp = new Map<string, HnsEndpoint>();
  const remoteEndpoint = (ip: string, pa: string): HnsEndpoint => {
    let ep = remoteByIp.get(ip);
    if (!ep) {
      ep = {
        id: rIds.guid(),
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
  return { remoteByIp, remoteEndpoint };
}

interface ServiceSink {
  addLb: (svc: string, vip: string, proto: 6 | 17, ext: number, int: number, backends: Backend[], isNodePort: boolean) => void;
  addService: (full: string, vip: string, backends: Backend[], type: GenService['type']) => GenService;
}

function serviceSink(kubeProxy: boolean, sourceVip: string, rIds: NodeFrame['rIds'], loadBalancers: LoadBalancer[], services: GenService[]): ServiceSink {
  return {
    addLb: (svc, vip, proto, ext, int, backends, isNodePort) => {
      if (!kubeProxy) return;
      const id = rIds.guid();
      loadBalancers.push({ id, serviceName: svc, vip, protocol: proto, externalPort: ext, internalPort: int, endpointIds: backends.map((b) => b.id), dips: backends.map((b) => b.ip), isNodePort, isIlb: !isNodePort, sourceVip, tag: hash5(id) });
    },
    addService: (full, vip, backends, type) => {
      const [namespace, name] = full.split('/');
      const svc: GenService = { namespace, name, vip, type, ports: [], backends: backends.map((b) => b.ip) };
      services.push(svc);
      return svc;
    },
  };
}

/**
 * The cluster's Services, the same on every node: a backend on this node is its local endpoint, one on a
 * peer a remote endpoint whose provider address is the peer's address as this node believes it
 * (kube-proxy takes it from the network's RemoteSubnetRoute: winkernel findRemoteSubnetProviderAddress).
 */
function clusterServices(f: NodeFrame, pods: HnsEndpoint[], remoteEndpoint: RemoteEndpointOf, sink: ServiceSink): void {
  const cluster = f.cluster!;
  const ownerOf = (ip: string) => {
    const x = ipToInt(ip);
    return f.remoteNodes.find((n) => {
      const base = ipToInt(n.podSubnet.split('/')[0]) + n.firstPod;
      return x >= base && x < base + f.spec.pods;
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
    const mine = sink.addService(full, svc.vip, backends, svc.type);
    const programmed = cluster.unprogrammed !== full;
    for (const p of svc.ports) {
      mine.ports.push({ ...p });
      if (!programmed) continue;
      sink.addLb(full, svc.vip, p.protocol, p.port, p.targetPort, backends, false);
      if (p.nodePort) sink.addLb(full, f.nodeIp, p.protocol, p.nodePort, p.targetPort, backends, true);
    }
  }
}

interface DrawnInputs {
  pods: HnsEndpoint[];
  remotePool: { ip: string; node: RemoteNode }[];
  remoteEndpoint: RemoteEndpointOf;
  svcBase: number;
  apiVip: string;
}

/** Up to k backends drawn from the local pods and the remote pool, each once. */
function backendPicker(f: NodeFrame, x: DrawnInputs): (k: number) => Backend[] {
  const localBackends: Backend[] = x.pods.map((p) => ({ id: p.id, ip: p.ip }));
  return (k) => {
    const out: Backend[] = [];
    const seen = new Set<string>();
    for (let t = 0; out.length < k && t < k * 4; t++) {
      const local = x.remotePool.length === 0 || f.rSvc.chance(0.5);
      let b: Backend;
      if (local) b = f.rSvc.pick(localBackends);
      else {
        const r = f.rSvc.pick(x.remotePool);
        const ep = x.remoteEndpoint(r.ip, r.node.ip);
        b = { id: ep.id, ip: ep.ip };
      }
      if (!seen.has(b.id)) {
        seen.add(b.id);
        out.push(b);
      }
    }
    return out;
  };
}

/** kubernetes (the API server behind <service CIDR>.1:443) and kube-dns (UDP+TCP 53) always exist. */
function systemServices(f: NodeFrame, x: DrawnInputs, sink: ServiceSink): void {
  const { prof } = f;
  const apiIp = prof?.name.startsWith('azure') ? '10.224.255.250' : prof && (prof.name === 'eks-vpc-bridge' || prof.name === 'ovn-kubernetes') ? '10.0.255.5' : '10.240.255.5';
  const apiEp = x.remoteEndpoint(apiIp, apiIp);
  sink.addLb('default/kubernetes', x.apiVip, 6, 443, 6443, [{ id: apiEp.id, ip: apiEp.ip }], false);
  sink.addService('default/kubernetes', x.apiVip, [{ id: apiEp.id, ip: apiEp.ip }], 'ClusterIP').ports.push({ port: 443, targetPort: 6443, protocol: 6 });
  const dnsBackends: Backend[] =
    x.remotePool.length > 0
      ? x.remotePool.slice(0, 2).map((r) => {
          const ep = x.remoteEndpoint(r.ip, r.node.ip);
          return { id: ep.id, ip: ep.ip };
        })
      : x.pods.slice(0, 2).map((p) => ({ id: p.id, ip: p.ip }));
  sink.addLb('kube-system/kube-dns', f.dnsVip, 17, 53, 53, dnsBackends, false);
  sink.addLb('kube-system/kube-dns', f.dnsVip, 6, 53, 53, dnsBackends, false);
  sink.addService('kube-system/kube-dns', f.dnsVip, dnsBackends, 'ClusterIP').ports.push({ port: 53, targetPort: 53, protocol: 17 }, { port: 53, targetPort: 53, protocol: 6 });
}

/** The drawn Services after the two system ones: a VIP, 1–3 ports, 1–3 backends, sometimes node ports. */
function drawnServices(f: NodeFrame, x: DrawnInputs, sink: ServiceSink): void {
  const { rSvc, serviceCidr, spec } = f;
  const svcSize = serviceCidr ? 2 ** (32 - Number(serviceCidr.split('/')[1])) : 1 << 20;
  const usedVips = new Set<string>([f.dnsVip, x.apiVip]);
  const usedNodePorts = new Set<number>();
  const pickBackends = backendPicker(f, x);
  for (let s = 2; s < spec.services; s++) {
    let vip: string;
    do vip = intToIp(x.svcBase + rSvc.int(12, svcSize - 2));
    while (usedVips.has(vip));
    usedVips.add(vip);
    const name = `default/${rSvc.pick(SERVICE_NAMES)}-${s}`;
    const roll = rSvc.float();
    const nPorts = roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
    const ports = rSvc.sample(SERVICE_PORTS, nPorts).filter((p, i, all) => all.findIndex((q) => q.port === p.port && q.proto === p.proto) === i);
    const backends = pickBackends(rSvc.int(1, 3));
    const nodePort = rSvc.chance(0.15);
    const svc = sink.addService(name, vip, backends, nodePort ? 'NodePort' : 'ClusterIP');
    for (const p of ports) {
      sink.addLb(name, vip, p.proto, p.port, p.target, backends, false);
      const sp: GenService['ports'][number] = { port: p.port, targetPort: p.target, protocol: p.proto };
      svc.ports.push(sp);
      if (!nodePort) continue;
      let np: number;
      do np = rSvc.int(30000, 32767);
      while (usedNodePorts.has(np));
      usedNodePorts.add(np);
      sp.nodePort = np;
      sink.addLb(name, f.nodeIp, p.proto, np, p.target, backends, true);
    }
  }
}

export function buildServices(f: NodeFrame, k8sNet: HnsNetwork, local: LocalEndpoints): ServicesBuilt {
  const { prof, spec, isL2, podSubnet, nodeIp, serviceCidr } = f;
  const remotePool: { ip: string; node: RemoteNode }[] = [];
  for (const n of f.remoteNodes) for (let j = 0; j < (prof ? Math.min(24, spec.pods) : 24); j++) remotePool.push({ ip: hostAt(n.podSubnet, n.firstPod + j), node: n });
  const { remoteByIp, remoteEndpoint } = remoteEndpoints(f, k8sNet, local.podPrefix);
  let calicoEp: HnsEndpoint | undefined;
  if (prof?.bridgeEndpoint?.remote) {
    // Calico VXLAN's Calico_ep: a remote endpoint at .2 with the management IP as PA (dataplane_windows.go:509-555).
    calicoEp = { ...remoteEndpoint(hostAt(podSubnet, 2), nodeIp), name: prof.bridgeEndpoint.name, mac: conjureMac('0E-2A', nodeIp) };
    remoteByIp.delete(calicoEp.ip);
  }
  const sourceVip = prof ? (local.sourceVipEp?.ip ?? calicoEp?.ip ?? (prof.name === 'ovn-kubernetes' ? local.bridgeEp?.ip : undefined) ?? '') : isL2 ? nodeIp : hostAt(podSubnet, 254);
  if (!prof && !isL2) remoteEndpoint(sourceVip, nodeIp).mac = f.hostMac;

  const svcBase = serviceCidr ? ipToInt(serviceCidr.split('/')[0]) : ipToInt('10.96.0.0');
  const loadBalancers: LoadBalancer[] = [];
  const services: GenService[] = [];
  const kubeProxy = prof ? prof.kubeProxy : true;
  const sink = serviceSink(kubeProxy, sourceVip, f.rIds, loadBalancers, services);
  const drawn: DrawnInputs = { pods: local.pods, remotePool, remoteEndpoint, svcBase, apiVip: intToIp(svcBase + 1) };
  if (f.cluster) clusterServices(f, local.pods, remoteEndpoint, sink);
  else if (prof?.name !== 'nat') {
    systemServices(f, drawn, sink);
    drawnServices(f, drawn, sink);
  }
  return { loadBalancers, services, kubeProxy, remoteByIp, remoteEndpoint, calicoEp };
}
