// The faults that change the load balancers and Services after they are built: a load balancer naming an
// endpoint that does not exist (stale-lb-dip), a backend no Running pod holds (stale-backend), a ready
// backend no load balancer sends to (missing-backend). Split out of buildNode (build.ts); its draws
// (rFault, and rIds through remoteEndpoint) happen in the same order, so the bundles stay byte-identical.
import type { Rng } from './prng.ts';
import { hostAt } from './net.ts';
import type { PlatformProfile } from './platforms.ts';
import type { FaultName, FaultRecord, GenService, HnsEndpoint, LoadBalancer, ResolvedSpec } from './types.ts';

export interface LoadBalancerFaultInputs {
  faults: Set<FaultName>;
  prof: PlatformProfile | undefined;
  spec: ResolvedSpec;
  kubeProxy: boolean;
  loadBalancers: LoadBalancer[];
  services: GenService[];
  pods: HnsEndpoint[];
  remoteNodes: { podSubnet: string; ip: string; firstPod: number }[];
  podSubnet: string;
  firstPod: number;
  nodeIp: string;
  rFault: Rng;
  remoteEndpoint: (ip: string, pa: string) => HnsEndpoint;
  faultRecords: FaultRecord[];
}

export function applyLoadBalancerFaults(x: LoadBalancerFaultInputs): void {
  const { faults, prof, spec, kubeProxy, loadBalancers, services, pods, remoteNodes, podSubnet, firstPod, nodeIp, rFault, remoteEndpoint, faultRecords } = x;
  if (faults.has('stale-lb-dip')) {
    if (!kubeProxy) throw new Error(`stale-lb-dip: ${prof!.name} has no HNS load balancers`);
    const lb = loadBalancers.find((l) => l.serviceName.startsWith('default/') && l.serviceName !== 'default/kubernetes') ?? loadBalancers[0];
    const staleId = rFault.guid();
    const staleIp = hostAt(podSubnet, prof?.name === 'calico-vxlan' || prof?.name === 'calico-bgp' ? 61 : 253);
    lb.endpointIds.push(staleId);
    lb.dips.push(staleIp);
    faultRecords.push({ name: 'stale-lb-dip', detail: `load balancer ${lb.id} (${lb.vip}:${lb.externalPort}) references endpoint ${staleId} (${staleIp}) which does not exist`, objects: [lb.id, staleId] });
  }
  const userSvc = services.find((x) => x.namespace === 'default' && x.name !== 'kubernetes');
  if (faults.has('stale-backend') || faults.has('missing-backend')) {
    if (!prof || !kubeProxy || !userSvc) throw new Error('stale-backend / missing-backend need a platform node with kube-proxy and a Service');
    const lbs = loadBalancers.filter((l) => l.serviceName === `${userSvc.namespace}/${userSvc.name}`);
    if (faults.has('stale-backend')) {
      // A pod that is gone (no Running pod holds the IP) still behind the load balancer: kube-proxy did not
      // remove its remote endpoint.
      const n = remoteNodes[0];
      // Past every pod of that node (Azure CNI's VNet pods share one subnet: far past all nodes' ranges).
      const ip = prof.name === 'azure-cni' ? '10.224.250.7' : n ? hostAt(n.podSubnet, n.firstPod + Math.min(24, spec.pods) + 1) : hostAt(podSubnet, firstPod + spec.pods + 1);
      const ep = remoteEndpoint(ip, n?.ip ?? nodeIp);
      for (const lb of lbs) {
        lb.endpointIds.push(ep.id);
        lb.dips.push(ip);
      }
      faultRecords.push({ name: 'stale-backend', detail: `${userSvc.namespace}/${userSvc.name} (${userSvc.vip}) is load-balanced to ${ip}, which no Running pod holds`, objects: [`${userSvc.namespace}/${userSvc.name}`, ip] });
    }
    if (faults.has('missing-backend')) {
      const extra = pods.find((p) => !userSvc.backends.includes(p.ip)) ?? pods[0];
      userSvc.unprogrammed = [extra.ip];
      userSvc.backends = [...userSvc.backends, extra.ip];
      faultRecords.push({ name: 'missing-backend', detail: `${userSvc.namespace}/${userSvc.name} has ready backend ${extra.ip} that no load balancer of this node sends to`, objects: [`${userSvc.namespace}/${userSvc.name}`, extra.ip] });
    }
  }
}
