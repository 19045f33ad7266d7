// The cluster's Service range — ClusterIPs are allocated from it (kube-apiserver
// --service-cluster-ip-range) — as far as a node's bundle says it. AKS and aks-engine write it to
// c:\k\kubeclusterconfig.json as Kubernetes.Network.ServiceCidr (Write-KubeClusterConfig in
// Azure/AgentBaker staging/cse/windows/kubernetesfunc.ps1 and Azure/aks-engine
// parts/k8s/kuberneteswindowsfunctions.ps1); sig-windows-tools' kubeadm node setup writes
// Kubernetes.Network.ServiceCIDR to the same kind of file. A dual-stack cluster lists two ranges,
// comma-separated (AgentBaker calicofunc.ps1 splits `$KubeServiceCIDR -split ","`). On EKS the
// vpc-bridge CNI config names it: "serviceCIDR" (aws/amazon-vpc-cni-plugins plugins/vpc-bridge/config/
// netconfig.go, netConfigJSON.ServiceCIDR, passed to the plugin's Kubernetes config). No other file of a
// bundle names it: kube-proxy and kubelet are never told the range.
import type { NodeModel } from '../../parsers/model/types.ts';
import { parseCidr } from '../../parsers/net/ip.ts';
import { inCidr } from '../walk/ip.ts';

export interface ServiceRange {
  cidr: string;
  file: string;
  line: number;
}

const KEY = /"ServiceCidr"\s*:\s*"([^"]*)"/i;
/** Where a bundle names the range: the node setup's cluster configuration, or EKS's vpc-bridge CNI config. */
const SOURCES: { file: RegExp; key: RegExp }[] = [
  { file: /(^|\/)kubeclusterconfig\.json$/i, key: KEY },
  { file: /(^|\/)vpc-bridge\.conf(list)?$/i, key: /"serviceCIDR"\s*:\s*"([^"]*)"/i },
];
const cache = new WeakMap<NodeModel, ServiceRange[]>();

/** The Service ranges the bundle's cluster configuration names; none when it has no such file or value. */
export function serviceRanges(m: NodeModel): ServiceRange[] {
  let out = cache.get(m);
  if (out) return out;
  out = [];
  for (const f of m.files) {
    const source = SOURCES.find((x) => x.file.test(f.name));
    if (!source) continue;
    const hit = m.text?.find(f.name, 1, (l) => source.key.test(l), 2000);
    const value = hit && source.key.exec(hit.text)?.[1];
    if (!value) continue;
    for (const part of value.split(',')) {
      const c = parseCidr(part);
      // A bare address is no range; a value that is no CIDR is not guessed at.
      if (c && part.includes('/')) out.push({ cidr: part.trim(), file: f.name, line: hit.line });
    }
    break;
  }
  cache.set(m, out);
  return out;
}

/** The Service range holding `ip`, if the bundle names one. */
export function serviceRangeOf(m: NodeModel, ip: string): ServiceRange | undefined {
  return serviceRanges(m).find((r) => inCidr(ip, r.cidr));
}
