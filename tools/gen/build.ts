// buildNode: spec -> object model of one Windows k8s node (HNS + compartments + routes + VFP) and its
// ground truth. Every file is later rendered from these objects, so the truth never depends on text.
// Each object kind is built in its own module, in this order (the random draws follow it, so the order
// is part of every bundle's bytes: tools/gen-fingerprint.ts checks a change keeps them):
//   build-frame.ts        spec, random streams, addressing, peers
//   build-networks.ts     HNS networks
//   build-endpoints.ts    local endpoints (host side, source VIP, pods)      + build-pod-faults.ts
//   build-services.ts     remote endpoints, load balancers, Services         + build-lb-faults.ts
//   cluster.ts            Kubernetes names of the pods
//   build-compartments.ts compartments, vNICs, HNS namespaces
//   build-routes.ts       IPv4 routes
//   vfpmodel.ts, platform-vfp.ts, cluster.ts   VFP ports and rules, the kubectl snapshot
//   build-expected.ts     the ground truth
import { buildVfpPorts } from './vfpmodel.ts';
import { adjustPlatformVfp } from './platform-vfp.ts';
import { DEFAULT_SPEC } from './build-spec.ts';
import { nodeFrame, isLegacyBuild, type NodeFrame } from './build-frame.ts';
import { buildNetworks } from './build-networks.ts';
import { buildLocalEndpoints } from './build-endpoints.ts';
import { applyPodFaults } from './build-pod-faults.ts';
import { buildServices, SERVICE_NAMES, SERVICE_PORTS } from './build-services.ts';
import { buildCompartments } from './build-compartments.ts';
import { buildRoutes } from './build-routes.ts';
import { applyLoadBalancerFaults } from './build-lb-faults.ts';
import { computeExpected } from './build-expected.ts';
import { assignPodNames, buildCluster } from './cluster.ts';
import type { ClusterNodeContext, Expected, GeneratedNode, NodeSpec } from './types.ts';

export { DEFAULT_SPEC, SERVICE_NAMES, SERVICE_PORTS, computeExpected, isLegacyBuild };

/**
 * One node. With `cluster` (tools/gen/cluster-nodes.ts) the node belongs to a generated cluster: its
 * addressing, host MAC, DR MAC, peers, Services and kubectl pods come from the cluster, so what it says
 * about its peers matches what they say about themselves (unless a cluster fault says otherwise).
 * Without it every draw and every byte is what it always was.
 */
export function buildNode(input: NodeSpec, cluster?: ClusterNodeContext): GeneratedNode {
  const f = nodeFrame(input, cluster);
  const { prof, spec, faults, faultRecords, isL2 } = f;
  const nets = buildNetworks({ ...f, podSubnet: f.podSubnet });
  if (prof?.name === 'nat') f.podSubnet = nets.natSubnet;

  const local = buildLocalEndpoints(f, nets.k8sNet);
  const { pods, podAt, endpoints } = local;
  applyPodFaults({ faults, prof, pods, podAt, podPolicyFor: local.podPolicyFor, clusterCidr: f.clusterCidr, podGateway: local.podGateway, podSubnet: f.podSubnet, isL2, faultRecords });

  const svc = buildServices(f, nets.k8sNet, local);
  const { kubeProxy, loadBalancers, services } = svc;
  applyLoadBalancerFaults({ faults, prof, spec, kubeProxy, loadBalancers, services, pods, remoteNodes: f.remoteNodes, podSubnet: f.podSubnet, firstPod: local.firstPod, nodeIp: f.nodeIp, rFault: f.rFault, remoteEndpoint: svc.remoteEndpoint, faultRecords });
  if (kubeProxy) endpoints.push(...svc.remoteByIp.values());
  if (svc.calicoEp) endpoints.push(svc.calicoEp);
  // Kubernetes names of the local pods (by the Services they back), needed for Antrea's endpoint names.
  if (cluster) {
    for (const p of pods) {
      const k = cluster.pods.find((x) => x.ip === p.ip);
      if (k) p.pod = { namespace: k.namespace, name: k.name, uid: k.uid };
    }
  } else if (prof) assignPodNames(pods, services, f.root.fork('pods'));

  const comp = buildCompartments(f, nets, local, endpoints);
  const { routes, missingRoute } = buildRoutes({ ...f, ...comp, natSubnet: nets.natSubnet, remoteNodes: f.remoteNodes });

  const node = nodeOf(f, { networks: nets.networks, endpoints, loadBalancers, services, namespaces: comp.namespaces, compartments: comp.compartments, routes });
  const missingRemote = (prof ? prof.crossNode === 'remote-subnet-routes' : !isL2) ? missingRoute?.podSubnet : undefined;
  node.vfpPorts = prof?.name === 'nat' ? [] : buildVfpPorts(node, f.root.fork('vfp'), { missingRemote });
  if (prof) adjustPlatformVfp(node, prof, f.root.fork('platform-vfp'));
  if (prof) buildCluster(node, prof, f.root.fork('cluster'), faultRecords, cluster);
  if (faults.has('blocked-port')) {
    const p = podAt(0);
    const port = node.vfpPorts.find((vp) => vp.endpointId === p.id)!;
    port.blocked = true;
    faultRecords.push({ name: 'blocked-port', detail: `VFP port ${port.name} of endpoint ${p.id} (${p.ip}) is Blocked : TRUE`, objects: [port.name, p.id] });
  }
  node.expected = computeExpected(node, faultRecords);
  return node;
}

type Built = Pick<GeneratedNode, 'networks' | 'endpoints' | 'loadBalancers' | 'services' | 'namespaces' | 'compartments' | 'routes'>;

/** The node object before its VFP ports, the kubectl snapshot and the ground truth are added. */
function nodeOf(f: NodeFrame, b: Built): GeneratedNode {
  const { prof, spec, addr } = f;
  return {
    spec,
    platform: prof?.name,
    nodeName: prof ? prof.nodeName(spec.hostName, addr!) : spec.hostName,
    services: b.services,
    pods: [],
    k8sNodes: [],
    logFaults: {},
    collectedAt: f.collectedAt,
    hostName: spec.hostName,
    nodeIp: f.nodeIp,
    nodeSubnet: f.nodeSubnet,
    nodeGateway: f.nodeGateway,
    hostMac: f.hostMac,
    clusterCidr: f.clusterCidr,
    serviceCidr: f.serviceCidr,
    podSubnet: f.podSubnet,
    dnsVip: f.dnsVip,
    dnsSuffix: f.dnsSuffix,
    remoteNodes: f.remoteNodes,
    networks: b.networks,
    endpoints: b.endpoints,
    loadBalancers: b.loadBalancers,
    namespaces: b.namespaces,
    compartments: b.compartments,
    routes: b.routes,
    vfpPorts: [],
    legacyBuild: f.legacyBuild,
    expected: undefined as unknown as Expected,
  };
}
