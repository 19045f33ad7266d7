// What each network plugin programs on a healthy Windows node, as its own code and docs say (each
// fact names its source beside it).
// Checks read these facts instead of assuming Flannel: a fact that is only an inference from the
// sources is marked `inferred`, and a check relying on it speaks at most a warning.
import type { PluginId } from './types.ts';

export type Family = 'flannel' | 'azure' | 'eks' | 'calico' | 'antrea' | 'ovn' | 'nat';

export interface PluginFacts {
  label: string;
  family: Family;
  /** Pod default gateway, relative to the HNS subnet that holds the pod. Undefined: not checked. */
  gateway?: {
    rule: 'dot2' | 'dot1' | 'hns-gateway';
    /** Who answers at that address. */
    owner: string;
    source: string;
  };
  /** How pod traffic reaches pods on other nodes. */
  crossNode: {
    how: 'host-routes' | 'remote-subnet-routes' | 'fabric' | 'none';
    /** What one route / policy covers. */
    unit?: 'node pod CIDR' | 'IPAM block';
    /** The expectation is an inference (no documentation or dump shows it): at most a warning. */
    inferred?: boolean;
    source: string;
  };
  /** HNS OutBoundNAT endpoint policy: used at all, and whether it must exempt the pod network. */
  outboundNat: { used: boolean; exemptsPods: boolean; exceptions: string; source: string };
  /** kube-proxy (winkernel) programs HNS load balancers and remote endpoints on this node. */
  kubeProxy: boolean;
  /** Remote endpoints kube-proxy creates: plain L2 (`02-11-…` MAC) or with a provider address (overlay). */
  remoteEndpoints: 'l2' | 'pa' | 'none';
  /** Local endpoints that are infrastructure, not pods (by name). */
  infraEndpoints: string[];
  /** Where pods get their DNS server from. */
  dns: { fromRuntime: boolean; source: string };
  /** kube-proxy uses a source VIP (overlay, DSR). */
  sourceVip: boolean;
}

const SWT = 'kubernetes-sigs/sig-windows-tools';
const ACN = 'Azure/azure-container-networking';

export const FACTS: Record<Exclude<PluginId, 'unknown'>, PluginFacts> = {
  'flannel-host-gw': {
    label: 'Flannel host-gw',
    family: 'flannel',
    gateway: { rule: 'dot2', owner: 'the bridge endpoint cbr0_ep (host compartment)', source: 'flannel-io/flannel pkg/backend/hostgw/hostgw_windows.go:113-114; containernetworking/plugins win-bridge_windows.go:79-82 ("gateway … needs to be x.2")' },
    crossNode: { how: 'host-routes', unit: 'node pod CIDR', source: 'flannel-io/flannel pkg/backend/route_network_windows.go:91-118 (New-NetRoute per host-gw lease, next hop = the peer node IP)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'cluster CIDR, service CIDR, node subnet', source: `${SWT} kubeadm/flannel/flannel-host-gw.yml (Exceptions = serviceSubnet, podSubnet, node SubnetCIDR)` },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: ['cbr0_ep'],
    dns: { fromRuntime: true, source: 'containernetworking/plugins pkg/hns/netconf_windows.go:118-128 (runtimeConfig DNS when capabilities.dns)' },
    sourceVip: false,
  },
  'flannel-vxlan': {
    label: 'Flannel VXLAN',
    family: 'flannel',
    gateway: { rule: 'dot1', owner: 'the distributed router (virtual, HNS)', source: 'flannel-io/flannel pkg/backend/vxlan/device_windows.go:51; containernetworking/plugins win-overlay_windows.go:127-128' },
    crossNode: { how: 'remote-subnet-routes', unit: 'node pod CIDR', source: 'flannel-io/flannel pkg/backend/vxlan/vxlan_network_windows.go:110-164 (RemoteSubnetRoute per lease)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'cluster CIDR, service CIDR', source: `${SWT} hostprocess/flannel/flanneld/start.ps1 (Exceptions = serviceSubnet, podSubnet)` },
    kubeProxy: true,
    remoteEndpoints: 'pa',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: 'containernetworking/plugins pkg/hns/netconf_windows.go:118-128' },
    sourceVip: true,
  },
  'azure-cni': {
    label: 'Azure CNI (VNet pod IPs)',
    family: 'azure',
    gateway: { rule: 'hns-gateway', owner: 'the Azure subnet router (.1 of the VNet subnet)', source: `${ACN} ipam/pool.go:268 (gateway = subnet host ::1); cni/network/invoker_cns.go:206` },
    crossNode: { how: 'fabric', source: 'Azure CNI: pods take VNet IPs, the Azure fabric routes them (learn.microsoft.com, Azure CNI networking overview)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'cluster CIDR and the VNet CIDRs', source: 'Azure/AgentBaker staging/cse/windows/azurecnifunc.ps1:100-126 (Set-AzureCNIConfig ExceptionList)' },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: `${ACN} cni/network/network_windows.go:138-184; AgentBaker azurecnifunc.ps1:50-51 (kube-dns IP, then 168.63.129.16)` },
    sourceVip: false,
  },
  'azure-cni-overlay': {
    label: 'Azure CNI Overlay',
    family: 'azure',
    gateway: { rule: 'dot1', owner: 'a virtual gateway reserved by azure-cns (.1 of the node pod CIDR)', source: `${ACN} cns/kubecontroller/nodenetworkconfig/conversion_windows.go:13-29 ("set the 2nd IP (*.1) as the gateway IP")` },
    crossNode: { how: 'fabric', source: 'AKS NetworkPluginMode Overlay: "use Azure Routing Domains rather than Kubenet\'s method of route tables" (learn.microsoft.com)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'cluster CIDRs only', source: 'Azure/AgentBaker staging/cse/windows/azurecnifunc.ps1:113-116 (VNet CIDRs skipped when overlay)' },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: `${ACN} cni/network/network_windows.go:138-184` },
    sourceVip: false,
  },
  // Azure CNI Pod Subnet with dynamic IP allocation ("Swift"): azure-cns hands out IPs of a subnet of the
  // VNet set aside for pods (ACN cni/azure-windows-swift.conflist: ipam azure-cns, no overlay mode,
  // executionMode v4swift). The pod IPs are VNet IPs, so the fabric routes them as for the node subnet.
  'azure-cni-pod-subnet': {
    label: 'Azure CNI (pod subnet, dynamic IP allocation)',
    family: 'azure',
    gateway: { rule: 'hns-gateway', owner: 'the Azure subnet router of the pod subnet (the gateway azure-cns returns for the network container)', source: `${ACN} cni/network/invoker_cns.go:206 (ncGatewayIPAddress from the CNS response)` },
    crossNode: { how: 'fabric', source: 'AKS "Azure CNI Pod Subnet": pods take IPs of a VNet subnet, the Azure fabric routes them (learn.microsoft.com, Configure Azure CNI networking for dynamic allocation of IPs)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'cluster CIDR and the VNet CIDRs', source: 'Azure/AgentBaker staging/cse/windows/azurecnifunc.ps1:100-126 (VNet CIDRs added unless overlay)' },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: `${ACN} cni/network/network_windows.go:138-184` },
    sourceVip: false,
  },
  'eks-vpc-bridge': {
    label: 'EKS vpc-bridge',
    family: 'eks',
    gateway: { rule: 'hns-gateway', owner: 'the VPC subnet router (.1 of the ENI subnet)', source: 'aws/amazon-vpc-cni-plugins plugins/vpc-bridge/network/bridge_windows.go:100-105' },
    crossNode: { how: 'fabric', source: 'EKS Windows: pod IPs are secondary IPs of the node ENI, routed by the VPC (aws/amazon-vpc-cni-plugins vpc-bridge)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'VPC CIDRs and service CIDR', source: 'aws/amazon-vpc-cni-plugins plugins/vpc-bridge (OutboundNatPolicySetting Exceptions = VPC CIDRs)' },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: 'aws/amazon-vpc-cni-plugins vpc-bridge (netconf DNS / runtime)' },
    sourceVip: false,
  },
  'calico-vxlan': {
    label: 'Calico VXLAN',
    family: 'calico',
    gateway: { rule: 'dot1', owner: 'the distributed router (virtual, HNS)', source: 'projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go:689-690' },
    crossNode: { how: 'remote-subnet-routes', unit: 'IPAM block', source: 'projectcalico/calico felix/dataplane/windows/vxlan_mgr.go:139-160 (RemoteSubnetRoute per VXLAN route, programmed by Felix)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'service CIDR and every IP pool (only when the pool has natOutgoing)', source: 'projectcalico/calico cni-plugin/internal/pkg/utils/winpol/windows_policy.go:36-110' },
    kubeProxy: true,
    remoteEndpoints: 'pa',
    infraEndpoints: ['Calico_ep'],
    dns: { fromRuntime: true, source: 'projectcalico/calico dataplane_windows.go:157-166 (runtimeConfig DNS first)' },
    sourceVip: true,
  },
  'calico-bgp': {
    label: 'Calico BGP (l2bridge)',
    family: 'calico',
    gateway: { rule: 'dot2', owner: 'the host endpoint Calico_ep (host compartment)', source: 'projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go:691-692' },
    crossNode: { how: 'host-routes', unit: 'IPAM block', inferred: true, source: 'projectcalico/calico confd/windows-packaging (Add-BgpCustomRoute per local block; remote blocks learned by the Windows BGP router — inferred, no dump seen)' },
    outboundNat: { used: true, exemptsPods: true, exceptions: 'service CIDR and every IP pool (natOutgoing)', source: 'projectcalico/calico cni-plugin/internal/pkg/utils/winpol/windows_policy.go:36-110' },
    kubeProxy: true,
    remoteEndpoints: 'l2',
    infraEndpoints: ['Calico_ep'],
    dns: { fromRuntime: true, source: 'projectcalico/calico dataplane_windows.go:157-166' },
    sourceVip: false,
  },
  antrea: {
    label: 'Antrea',
    family: 'antrea',
    gateway: { rule: 'dot1', owner: 'antrea-gw0, the OVS internal port', source: 'antrea-io/antrea pkg/agent/util/net.go:451-453; docs/design/windows-design.md:75' },
    crossNode: { how: 'host-routes', unit: 'node pod CIDR', source: 'antrea-io/antrea pkg/agent/route/route_windows.go:248-289 (route per peer pod CIDR on antrea-gw0, encap mode)' },
    outboundNat: { used: false, exemptsPods: false, exceptions: 'none: SNAT is WinNAT antrea-nat on the pod CIDR', source: 'antrea-io/antrea docs/design/windows-design.md:166-180 (New-NetNat antrea-nat)' },
    kubeProxy: false,
    remoteEndpoints: 'none',
    infraEndpoints: [],
    dns: { fromRuntime: true, source: 'antrea-io/antrea pkg/agent/cniserver/interface_configuration_windows.go:205-216' },
    sourceVip: false,
  },
  'ovn-kubernetes': {
    label: 'OVN-Kubernetes (hybrid overlay)',
    family: 'ovn',
    gateway: { rule: 'dot1', owner: 'the distributed router (virtual, HNS)', source: 'ovn-org/ovn-kubernetes go-controller/hybrid-overlay/pkg/controller/ho_node_windows.go:265-269' },
    crossNode: { how: 'remote-subnet-routes', unit: 'node pod CIDR', source: 'ovn-org/ovn-kubernetes ho_node_windows.go:195-215 (remote subnet route per node)' },
    outboundNat: { used: true, exemptsPods: false, exceptions: 'service CIDR only (WMCO template; the cluster CIDR is not exempted)', source: 'openshift/windows-machine-config-operator pkg/internal/cni-conf-template.json' },
    kubeProxy: true,
    remoteEndpoints: 'pa',
    infraEndpoints: ['VIPEndpoint'],
    dns: { fromRuntime: true, source: 'containernetworking/plugins win-overlay (runtimeConfig DNS)' },
    sourceVip: true,
  },
  nat: {
    label: 'nat (WinNAT, no Kubernetes network plugin)',
    family: 'nat',
    crossNode: { how: 'none', source: 'microsoft/windows-container-networking cni/cni.go:45-49 (nat → hcn.NAT, WinNAT)' },
    outboundNat: { used: false, exemptsPods: false, exceptions: 'none: WinNAT', source: 'microsoft/windows-container-networking example/nat.conf' },
    kubeProxy: false,
    remoteEndpoints: 'none',
    infraEndpoints: [],
    dns: { fromRuntime: false, source: 'microsoft/windows-container-networking example/nat.conf' },
    sourceVip: false,
  },
};

export const factsOf = (p: PluginId): PluginFacts | undefined => (p === 'unknown' ? undefined : FACTS[p]);

/** The facts in words, for the platform object of the inspect document. */
export function factList(p: PluginId): { topic: string; fact: string; source: string }[] {
  const f = factsOf(p);
  if (!f) return [];
  const gw = f.gateway;
  const out = [];
  if (gw) out.push({ topic: 'pod gateway', fact: `${gw.rule === 'dot2' ? '.2 of the pod subnet' : gw.rule === 'dot1' ? '.1 of the pod subnet' : "the HNS subnet's gateway"}: ${gw.owner}`, source: gw.source });
  const cn = f.crossNode;
  out.push({
    topic: 'pods on other nodes',
    fact:
      cn.how === 'host-routes'
        ? `a host route per remote ${cn.unit}${cn.inferred ? ' (inferred)' : ''}`
        : cn.how === 'remote-subnet-routes'
          ? `a RemoteSubnetRoute (VXLAN) per remote ${cn.unit}`
          : cn.how === 'fabric'
            ? 'the cloud fabric routes pod IPs: no host route or RemoteSubnetRoute expected'
            : 'none (no cross-node pod network)',
    source: cn.source,
  });
  out.push({ topic: 'OutboundNAT', fact: f.outboundNat.used ? `exceptions: ${f.outboundNat.exceptions}` : f.outboundNat.exceptions, source: f.outboundNat.source });
  out.push({ topic: 'services', fact: f.kubeProxy ? 'kube-proxy (winkernel) programs HNS load balancers' : 'no HNS load balancers expected (services are handled elsewhere)', source: f.kubeProxy ? 'kubernetes/kubernetes pkg/proxy/winkernel' : f.outboundNat.source });
  out.push({ topic: 'pod DNS', fact: f.dns.fromRuntime ? 'the kube-dns Service VIP from the runtime (kubelet --cluster-dns)' : 'the host or runtime default', source: f.dns.source });
  return out;
}

/** The plugins whose facts satisfy `pred` (a check's `platforms` declaration, derived from the facts). */
export function pluginsWhere(pred: (f: PluginFacts) => boolean): Exclude<PluginId, 'unknown'>[] {
  return (Object.keys(FACTS) as Exclude<PluginId, 'unknown'>[]).filter((p) => pred(FACTS[p]));
}
