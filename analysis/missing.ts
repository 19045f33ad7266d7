// Which of the core inputs a bundle lacks and what that costs, said once for the whole bundle
// (a few pasted outputs are a bundle too): the packet walks that cannot be followed and the checks
// that cannot run. The checks themselves also say "undecided" one by one; this is the summary a
// person reads first.
import type { NodeModel } from '../parsers/model/types.ts';

export interface MissingInput {
  /** What is not in the bundle, in words. */
  what: string;
  /** The CollectLogs files (and commands) that would hold it. */
  files: string[];
  /** What its absence prevents: walks and checks, in words. */
  prevents: string[];
}

export function missingInputs(m: NodeModel): MissingInput[] {
  const out: MissingInput[] = [];
  if (m.networks === null) {
    out.push({
      what: 'HNS networks',
      files: ['network.txt (Get-HnsNetwork | ConvertTo-Json)'],
      prevents: ['the networks on the topology: their subnets, type and remote subnet routes', 'the pod gateway, remote pod subnet and management IP checks'],
    });
  }
  if (m.endpoints === null) {
    out.push({
      what: 'HNS endpoints',
      files: ['endpoint.txt (Get-HnsEndpoint | ConvertTo-Json)'],
      prevents: ['packet walks from or to a pod: a pod is found by its endpoint, and its VFP port through it', 'the OutBoundNAT exception, endpoint-without-vNIC, duplicate IP and stale load-balancer backend checks'],
    });
  }
  if (m.loadBalancers === null) {
    out.push({
      what: 'HNS load balancers',
      files: ['policy.txt (Get-HnsPolicyList / Get-HnsLoadBalancer | ConvertTo-Json)'],
      prevents: ['services as HNS programmed them: a walk to a service VIP relies on the VFP rules alone', 'the stale backend, degraded load balancer, DNS load balancer and service-without-load-balancer checks'],
    });
  }
  if (m.ip === null) {
    out.push({
      what: 'the IP configuration of the compartments',
      files: ['ip.txt (ipconfig /allcompartments /all)'],
      prevents: ['pod NICs with their addresses, gateways and DNS servers', 'the endpoint-without-vNIC, pod DNS server and pod gateway (as the NIC sees it) checks'],
    });
  }
  if (m.routes === null) {
    out.push({
      what: "the node's routing table",
      files: ['routes.txt (route print)'],
      prevents: ['packet walks that leave the node (pod → outside): the next hop is unknown', 'the check for routes to remote pod subnets (l2bridge)'],
    });
  }
  if (m.vfp === null) {
    out.push({
      what: 'VFP rules',
      files: ['vfpOutput.txt (vfpctrl /list-rule or /get-rule-counter per port)'],
      prevents: ['every packet walk: the layers, groups and rules a packet crosses are unknown, so walks end as unknown', 'the load-balancer rule, HNS/VFP drift and blocked port checks'],
    });
  }
  return out;
}
